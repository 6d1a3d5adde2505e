/**
 * V1 template repositories run as they are (src/engine/v1): a small V1 repository of our own, rendered
 * with the real system Ruby, through `status` and `apply` like V2 templates. One semantic per test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plan } from '../../../src/engine/plan.js';
import { loadProject } from '../../../src/engine/project.js';
import type { RenderPlan } from '../../../src/engine/render-plan.js';
import { resetGitFetches } from '../../../src/engine/sources/index.js';
import { run } from '../../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, type Tree, tempDir, tempTree } from '../../helpers/fs.js';
import { tempRemote } from '../../helpers/git.js';

const bin = resolve(import.meta.dirname, '../../../dist/cli/bin.cjs');

beforeEach(() => {
  vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-'));
  resetGitFetches();
});
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

/** A V1 repository: config_defaults.yml, moduleroot/ and moduleroot_init/, one file per semantic. */
function v1Repo(extra: Tree = {}): Tree {
  return {
    'config_defaults.yml': `---
common:
  greeting: hello
  items: [a, b]
  nested:
    keep: 1
    change: 1
perfile.txt:
  greeting: from the file key
  only_here: yes
bin/run.sh:
  manage_execute_permissions: true
`,
    'moduleroot/common.txt.erb':
      "greeting=<%= @configs['greeting'] %>\nitems=<%= @configs['items'].join(',') %>\nnested=<%= @configs['nested'].inspect %>\n",
    'moduleroot/perfile.txt.erb':
      "greeting=<%= @configs['greeting'] %>\nonly_here=<%= @configs['only_here'].inspect %>\nproject=<%= @configs['from_project'] %>\n",
    'moduleroot/trim.txt.erb': '<% [1, 2].each do |i| -%>\nline <%= i %>\n<%- end -%>\nend\n',
    'moduleroot/meta.txt.erb':
      "<%= @configs['module_metadata']['name'] %> <%= @metadata['version'] %> <%= config_for('perfile.txt')['greeting'] %>\n",
    'moduleroot/plain.txt': 'copied as it is <%= not erb %>',
    'moduleroot/skipped.txt.erb': 'never rendered\n',
    'moduleroot/doomed.txt': 'doomed\n',
    'moduleroot/bin/run.sh.erb': { content: '#!/bin/sh\necho <%= @configs["greeting"] %>\n', mode: 0o755 },
    'moduleroot/bin/plain.sh': { content: '#!/bin/sh\n', mode: 0o755 },
    'moduleroot_init/init.txt.erb': 'first time <%= @configs["greeting"] %>\n',
    'moduleroot_init/existing-init.txt': 'from the template\n',
    ...extra,
  };
}

const SYNC = `---
common:
  greeting: hi
  items: ['---a', c]
  nested:
    change: 2
perfile.txt:
  from_project: yes please
skipped.txt:
  unmanaged: true
doomed.txt:
  delete: true
`;

const METADATA = '{"name": "acme-widget", "version": "1.2.3"}';

function v1Project(files: Tree = {}): string {
  return tempTree({
    '.sync.yml': SYNC,
    'metadata.json': METADATA,
    'doomed.txt': 'doomed\n',
    'existing-init.txt': 'mine\n',
    ...files,
  });
}

async function planOf(root: string, repo: string, env?: NodeJS.ProcessEnv): Promise<RenderPlan> {
  return plan(await loadProject(root, { templateUrl: repo, ...(env ? { env } : {}) }));
}

function output(p: RenderPlan, path: string): string | undefined {
  const f = p.files.find((x) => x.path === path);
  return f && Buffer.from(f.content).toString('utf8');
}

describe('V1 settings, as PDK merges them', () => {
  it('common: config_defaults.yml deep-merged with .sync.yml, arrays unioned, `---x` knocking x out', async () => {
    const repo = tempTree(v1Repo());
    const p = await planOf(v1Project(), repo);
    expect(p.problems).toEqual([]);
    expect(output(p, 'common.txt')).toBe('greeting=hi\nitems=b,c\nnested={"keep"=>1, "change"=>2}\n');
  });

  it("a file's own key over common (a shallow merge), from config_defaults.yml and .sync.yml", async () => {
    const repo = tempTree(v1Repo());
    const p = await planOf(v1Project(), repo);
    // YAML 1.1 as Ruby reads it: `yes` is true.
    expect(output(p, 'perfile.txt')).toBe('greeting=from the file key\nonly_here=true\nproject=yes please\n');
  });

  it('a top-level key given twice: the last one wins, as in Ruby (and PDK), with a warning', async () => {
    const repo = tempTree(v1Repo());
    const root = v1Project({ '.sync.yml': `${SYNC}perfile.txt:\n  from_project: the second\n` });
    const p = await planOf(root, repo);
    expect(p.problems).toMatchObject([
      { severity: 'warning', code: 'SYNC_YAML', file: join(root, '.sync.yml'), line: 13 },
    ]);
    expect(output(p, 'perfile.txt')).toContain('project=the second\n');
  });

  it('ERB with trim mode `-`; `.erb` dropped from the name; other files copied as they are', async () => {
    const repo = tempTree(v1Repo());
    const p = await planOf(v1Project(), repo);
    expect(output(p, 'trim.txt')).toBe('line 1\nline 2\nend\n');
    // PDK writes every file with a final newline.
    expect(output(p, 'plain.txt')).toBe('copied as it is <%= not erb %>\n');
    expect(p.files.map((f) => f.source)).toContain('moduleroot/plain.txt');
  });

  it('the module metadata (@configs module_metadata, @metadata) and config_for', async () => {
    const repo = tempTree(v1Repo());
    const p = await planOf(v1Project(), repo);
    expect(output(p, 'meta.txt')).toBe('acme-widget 1.2.3 from the file key\n');
  });

  it('one Ruby process renders every file of a run', async () => {
    const repo = tempTree(
      v1Repo({
        'moduleroot/pid1.txt.erb': '<%= Process.pid %>',
        'moduleroot/pid2.txt.erb': '<%= Process.pid %>',
      }),
    );
    const p = await planOf(v1Project(), repo);
    expect(output(p, 'pid1.txt')).toMatch(/^\d+\n$/);
    expect(output(p, 'pid1.txt')).toBe(output(p, 'pid2.txt'));
    expect(Number(output(p, 'pid1.txt'))).not.toBe(process.pid);
  });
});

describe('V1 per-file keys and moduleroot_init through status and apply', () => {
  it('render leaves out an unmanaged file, as PDK never renders it and as a V2 render does, saying so', async () => {
    const repo = tempTree(v1Repo());
    const root = v1Project();
    const out = join(tempDir(), 'out');
    const r = await run(root, 'render', '--output', out, '--template-url', repo);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      "left out 1 unmanaged file (.sync.yml's unmanaged: apply never writes it): skipped.txt\n",
    );
    expect(existsSync(join(out, 'skipped.txt'))).toBe(false);
    expect(existsSync(join(out, 'common.txt'))).toBe(true);
    const named = await run(root, 'render', 'skipped.txt', '--template-url', repo);
    expect(named).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: 'skipped.txt' is unmanaged: render leaves out what apply never writes\n  hint: to see the template's output, remove `unmanaged: true` under the file's key in .sync.yml (PDK does not render it either)\n",
    });
  });

  it('unmanaged is never written, delete removes, execute permissions managed, init only when missing', async () => {
    const repo = tempTree(v1Repo());
    const root = v1Project();
    const status = await run(root, 'status', '--all', '--template-url', repo);
    expect(status.stderr).toBe('');
    expect(status.stdout).toMatch(/^delete +doomed\.txt +- +listed in delete$/m);
    expect(status.stdout).toMatch(/^create +init\.txt +v1 +init file for the new project$/m);
    expect(status.stdout).toMatch(
      /^init +existing-init\.txt +v1 +init file already present: left as it is$/m,
    );
    // Listed as a V2 template's unmanaged file is (never rendered, never written).
    expect(status.stdout).toMatch(/^unmanaged +skipped\.txt +.* +listed in unmanaged$/m);

    const applied = await run(root, 'apply', '--template-url', repo);
    expect(applied.code).toBe(0);
    expect(existsSync(join(root, 'doomed.txt'))).toBe(false);
    expect(existsSync(join(root, 'skipped.txt'))).toBe(false);
    expect(readFileSync(join(root, 'init.txt'), 'utf8')).toBe('first time hi\n');
    expect(readFileSync(join(root, 'existing-init.txt'), 'utf8')).toBe('mine\n');
    // manage_execute_permissions for bin/run.sh; bin/plain.sh is executable in the template but not managed.
    expect(statSync(join(root, 'bin/run.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, 'bin/plain.sh')).mode & 0o777).toBe(0o644);
    expect(readFileSync(join(root, '.pantograph.lock'), 'utf8')).toContain('"common.txt"');

    // Once the project has a lock, a missing init file is no longer created (pdk update creates none).
    const again = await run(root, 'status', '--template-url', repo, '--check');
    expect(again.code).toBe(0);
  });

  it('in a module PDK converted (pdk-version or template-url in metadata.json) a run is pdk update: no init file is created', async () => {
    const repo = tempTree(v1Repo());
    for (const key of ['pdk-version', 'template-url']) {
      const metadata = `{"name": "acme-widget", "version": "1.2.3", "${key}": "${key === 'pdk-version' ? '3.5.0' : repo}"}`;
      const root = v1Project({ 'metadata.json': metadata });
      const status = await run(root, 'status', '--all', '--template-url', repo);
      expect(status.stderr, key).toBe('');
      expect(status.stdout, key).not.toMatch(/init\.txt/);
      expect(status.stdout, key).toMatch(/^create +common\.txt +v1/m);
      expect((await run(root, 'apply', '--template-url', repo)).code, key).toBe(0);
      expect(existsSync(join(root, 'init.txt')), key).toBe(false);
      expect(readFileSync(join(root, 'existing-init.txt'), 'utf8'), key).toBe('mine\n');
      expect((await run(root, 'status', '--check', '--template-url', repo)).code, key).toBe(0);
    }
  });

  it('PDK never takes an execute bit away: an executable managed file stays executable', async () => {
    const repo = tempTree(v1Repo());
    const root = v1Project({ 'common.txt': { content: 'old\n', mode: 0o755 } });
    const p = await planOf(root, repo);
    expect(p.files.find((f) => f.path === 'common.txt')?.mode).toBe(0o755);
    expect(p.files.find((f) => f.path === 'trim.txt')?.mode).toBe(0o644);
  });

  it('hand edits are kept; a changed setting shows as a diff with apply --noop', async () => {
    const repo = tempTree(v1Repo());
    const root = v1Project();
    expect((await run(root, 'apply', '--template-url', repo)).code).toBe(0);
    writeFileSync(join(root, 'trim.txt'), 'edited by hand\n');
    writeFileSync(join(root, '.sync.yml'), SYNC.replace('greeting: hi', 'greeting: hey'));
    const noop = await run(root, 'apply', '--noop', '--diff', '--template-url', repo);
    expect(noop.stdout).toContain('-greeting=hi');
    expect(noop.stdout).toContain('+greeting=hey');
    expect(noop.stdout).toMatch(/kept +trim\.txt +\(changed by hand: kept\)/);
    expect((await run(root, 'apply', '--template-url', repo)).code).toBe(0);
    expect(readFileSync(join(root, 'common.txt'), 'utf8')).toContain('greeting=hey');
    expect(readFileSync(join(root, 'trim.txt'), 'utf8')).toBe('edited by hand\n');
  });

  it('metadata.json template-url names the repository (file:// and a path, #ref of a local git repository)', async () => {
    const remote = tempRemote();
    const first = remote.commit(v1Repo());
    remote.tag('1.0.0', first);
    remote.commit({ 'moduleroot/common.txt.erb': 'changed after 1.0.0\n' });
    const root = v1Project({
      'metadata.json': JSON.stringify({
        name: 'acme-widget',
        version: '1.2.3',
        'template-url': `${remote.url}#1.0.0`,
      }),
    });
    const p = await plan(await loadProject(root));
    expect(p.problems).toEqual([]);
    expect(output(p, 'common.txt')).toBe('greeting=hi\nitems=b,c\nnested={"keep"=>1, "change"=>2}\n');
    expect(p.sources[0]).toMatchObject({ type: 'git', ref: '1.0.0', commit: first });
  });
});

describe('a git V1 repository is locked like any git source', () => {
  it('apply records its commit; later commits wait for update', async () => {
    const remote = tempRemote();
    const first = remote.commit(v1Repo());
    const root = v1Project();
    const url = `${remote.url}#main`;
    expect((await run(root, 'apply', '--template-url', url)).code).toBe(0);
    expect(readFileSync(join(root, '.pantograph.lock'), 'utf8')).toContain(first);
    remote.commit({ 'moduleroot/trim.txt.erb': 'moved on\n' });
    const locked = await run(root, 'status', '--check', '--template-url', url);
    expect(locked.code).toBe(0);
    expect(readFileSync(join(root, 'trim.txt'), 'utf8')).toBe('line 1\nline 2\nend\n');
    resetGitFetches(); // a new run of the command
    expect((await run(root, 'update', '--template-url', url)).code).toBe(0);
    expect(readFileSync(join(root, 'trim.txt'), 'utf8')).toBe('moved on\n');
  });
});

describe('a V1 conflict is merged three ways, as a V2 one (the previous output rendered again)', () => {
  const LONG = "top\nline 2\nline 3\nline 4\nline 5\nend <%= @configs['greeting'] %>\n";

  it('a hand edit and a template change elsewhere in the file merge in place, then resolve and status agree', async () => {
    const remote = tempRemote();
    remote.tag('1.0.0', remote.commit(v1Repo({ 'moduleroot/long.txt.erb': LONG })));
    const changed = LONG.replace('end', 'the end');
    remote.tag('2.0.0', remote.commit({ 'moduleroot/long.txt.erb': changed }));
    const root = v1Project();
    const at = (ref: string) => ['--template-url', `${remote.url}#${ref}`];
    expect((await run(root, 'apply', '--yes', ...at('1.0.0'))).code).toBe(0);
    writeFileSync(join(root, 'long.txt'), 'top, edited by hand\nline 2\nline 3\nline 4\nline 5\nend hi\n');
    resetGitFetches();
    const r = await run(root, 'apply', ...at('2.0.0'));
    expect([r.code, r.stdout]).toEqual([
      1,
      'conflict  long.txt: merged cleanly with the new template output: review it\n',
    ]);
    expect(readFileSync(join(root, 'long.txt'), 'utf8')).toBe(
      'top, edited by hand\nline 2\nline 3\nline 4\nline 5\nthe end hi\n',
    );
    expect(readFileSync(join(root, 'long.txt.pantograph-new'), 'utf8')).toBe(
      'top\nline 2\nline 3\nline 4\nline 5\nthe end hi\n',
    );
    const resolved = await run(root, 'resolve', 'long.txt');
    expect(resolved.stdout).toContain('resolved long.txt');
    expect(resolved.code).toBe(0);
    expect((await run(root, 'status', '--check', ...at('2.0.0'))).code).toBe(0);
  });

  it("an edit on the changed line is a conflict with markers, the user's line kept in them", async () => {
    const remote = tempRemote();
    remote.tag('1.0.0', remote.commit(v1Repo({ 'moduleroot/long.txt.erb': LONG })));
    remote.tag('2.0.0', remote.commit({ 'moduleroot/long.txt.erb': LONG.replace('end', 'the end') }));
    const root = v1Project();
    const at = (ref: string) => ['--template-url', `${remote.url}#${ref}`];
    expect((await run(root, 'apply', '--yes', ...at('1.0.0'))).code).toBe(0);
    writeFileSync(join(root, 'long.txt'), 'top\nline 2\nline 3\nline 4\nline 5\nmy end\n');
    resetGitFetches();
    const r = await run(root, 'apply', ...at('2.0.0'));
    expect(r.code).toBe(1);
    const merged = readFileSync(join(root, 'long.txt'), 'utf8');
    expect(merged).toContain(
      '<<<<<<< long.txt (yours)\nmy end\n=======\nthe end hi\n>>>>>>> long.txt (new template output)\n',
    );
  });
});

describe('V1 errors, each saying where and what to do', () => {
  it('an ERB error names the template file and its line', async () => {
    const repo = tempTree(
      v1Repo({ 'moduleroot/broken.txt.erb': "ok\n<%# a comment %>\n<%= @configs['missing']['key'] %>\n" }),
    );
    const p = await planOf(v1Project(), repo);
    const problem = p.problems.find((x) => x.code === 'V1_RENDER');
    expect(problem).toMatchObject({
      severity: 'error',
      file: join(repo, 'moduleroot/broken.txt.erb'),
      line: 3,
    });
    expect(problem?.message).toMatch(/^broken\.txt: NoMethodError: undefined method `\[\]' for nil/);
    expect(problem?.hint).toContain('unmanaged: true');
    // The other files are still rendered.
    expect(output(p, 'common.txt')).toContain('greeting=hi');
  });

  it('an ERB syntax error names its line too', async () => {
    const repo = tempTree(v1Repo({ 'moduleroot/syntax.txt.erb': 'a\nb\n<% if true %>\nno end\n' }));
    const p = await planOf(v1Project(), repo);
    const problem = p.problems.find((x) => x.code === 'V1_RENDER');
    expect(problem?.file).toBe(join(repo, 'moduleroot/syntax.txt.erb'));
    expect(problem?.message).toMatch(/SyntaxError/);
    expect(problem?.line).toBeGreaterThanOrEqual(3);
  });

  it("an ERB syntax error is the template's fault: the hint says to fix or report the template, and quotes no compiled Ruby", async () => {
    const repo = tempTree(v1Repo({ 'moduleroot/.yardopts.erb': '<% if true %>\n--markup markdown\n' }));
    const p = await planOf(v1Project(), repo);
    const problem = p.problems.find((x) => x.code === 'V1_RENDER');
    expect(problem).toMatchObject({ file: join(repo, 'moduleroot/.yardopts.erb'), line: 3, column: 1 });
    expect(problem?.message).toBe(
      ".yardopts: SyntaxError: syntax error, unexpected end-of-input, expecting `end'",
    );
    expect(problem?.hint).toMatch(
      /^the template itself is broken \(Ruby cannot compile its ERB, whatever the settings\): fix the template, or report it/,
    );
    expect(problem?.hint).not.toContain('fix the setting');
  });

  it('an ERB tag never closed: Ruby writes the rest as text, as PDK does, and the run warns at the tag', async () => {
    const repo = tempTree(
      v1Repo({ 'moduleroot/.yardopts.erb': '--markup markdown\n--format <%= @configs["fmt"] \n' }),
    );
    const root = v1Project();
    const p = await planOf(root, repo);
    expect(output(p, '.yardopts')).toBe('--markup markdown\n--format  @configs["fmt"] \n');
    expect(p.problems).toEqual([
      {
        severity: 'warning',
        code: 'V1_UNCLOSED_TAG',
        message:
          ".yardopts: the ERB tag `<%=` is never closed: Ruby's ERB writes the rest of the template as text (as PDK does)",
        file: join(repo, 'moduleroot/.yardopts.erb'),
        line: 2,
        column: 10,
        hint: "close it with '%>'; or, if the text is meant, write '<%%' for a literal '<%'",
      },
    ]);
    // validate says so too, and still finds the project valid.
    const r = await run(root, 'validate', '--template-url', repo);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('.yardopts.erb:2:10: warning: .yardopts: the ERB tag `<%=` is never closed');
  });

  it('literal <%% and %%> are no tags: no warning', async () => {
    const repo = tempTree(v1Repo({ 'moduleroot/lit.txt.erb': 'a <%% b\n<%= "x %%> y" %>\n' }));
    const p = await planOf(v1Project(), repo);
    expect(p.problems).toEqual([]);
    expect(output(p, 'lit.txt')).toBe('a <% b\nx %> y\n');
  });

  it("invalid YAML in config_defaults.yml is PDK's warning ({} read), at Ruby's line and column", async () => {
    const repo = tempTree(v1Repo({ 'config_defaults.yml': 'common:\n  a: 1\n    b: 2\n' }));
    const p = await planOf(v1Project(), repo);
    // Psych's line and column are 1-based already: the `:` after `b`.
    expect(p.problems).toMatchObject([
      {
        severity: 'warning',
        code: 'V1_CONFIG_YAML',
        file: join(repo, 'config_defaults.yml'),
        line: 3,
        column: 6,
      },
    ]);
  });

  it("settings that cannot be computed (PDK's TypeError on an empty file key) point at the key", async () => {
    const repo = tempTree(v1Repo());
    const root = v1Project({ '.sync.yml': `${SYNC}trim.txt: ~\n` });
    const p = await planOf(root, repo);
    expect(p.problems.find((x) => x.code === 'V1_CONFIG')).toMatchObject({
      message: expect.stringMatching(/^trim\.txt: TypeError: no implicit conversion of nil into Hash/),
      file: join(root, '.sync.yml'),
      line: 13,
    });
    expect(output(p, 'trim.txt')).toBeUndefined();
    expect(output(p, 'common.txt')).toContain('greeting=hi');
  });

  it('a template that prints, reads standard input or exits cannot break the worker', async () => {
    const repo = tempTree(
      v1Repo({
        'moduleroot/a-print.txt.erb':
          "<% puts 'noise'; STDOUT.puts 'more'; $stdout.write 'x'; system('echo', 'child') -%>printed\n",
        'moduleroot/b-read.txt.erb': '<%= $stdin.read.inspect %> <%= gets.inspect %>\n',
        'moduleroot/c-exit.txt.erb': 'a\n<% exit 3 %>\n',
      }),
    );
    const p = await planOf(v1Project(), repo);
    expect(output(p, 'a-print.txt')).toBe('printed\n');
    expect(output(p, 'b-read.txt')).toBe('"" nil\n');
    expect(p.problems.find((x) => x.message.startsWith('c-exit.txt'))).toMatchObject({
      code: 'V1_RENDER',
      file: join(repo, 'moduleroot/c-exit.txt.erb'),
      line: 2,
    });
    expect(output(p, 'common.txt')).toContain('greeting=hi');
  });

  it('a template that never ends is stopped at the time limit, and the worker restarts for the rest', async () => {
    const repo = tempTree(v1Repo({ 'moduleroot/aaa-loop.txt.erb': '<% loop {} %>' }));
    const p = await planOf(v1Project(), repo, { ...process.env, PANTOGRAPH_RUBY_TIME_LIMIT: '1' });
    expect(p.problems.find((x) => x.code === 'V1_TIME_LIMIT')).toMatchObject({
      file: join(repo, 'moduleroot/aaa-loop.txt.erb'),
    });
    expect(output(p, 'common.txt')).toContain('greeting=hi');
  });

  it('output beyond the size limit is refused', async () => {
    const repo = tempTree(v1Repo({ 'moduleroot/big.txt.erb': "<%= 'x' * (3 * 1024 * 1024) %>" }));
    const p = await planOf(v1Project(), repo, { ...process.env, PANTOGRAPH_RUBY_OUTPUT_LIMIT: '1' });
    expect(p.problems.find((x) => x.message.startsWith('big.txt'))).toMatchObject({
      code: 'V1_OUTPUT_LIMIT',
      file: join(repo, 'moduleroot/big.txt.erb'),
    });
    expect(output(p, 'big.txt')).toBeUndefined();
  });

  it('a git V1 repository runs Ruby code: refused unless trusted (a local one is)', async () => {
    const remote = tempRemote();
    remote.commit(v1Repo());
    // A file:// git URL is on the user's disk: trusted, as filesystem sources are.
    const local = await run(v1Project(), 'status', '--template-url', `${remote.url}#main`);
    expect(local.stderr).toBe('');
    expect(local.code).toBe(0);
    const remoteRoot = v1Project({
      // As PDK writes it: one key a line, template-url among the last.
      'metadata.json': `${JSON.stringify(
        {
          name: 'acme-widget',
          version: '1.0.0',
          'pdk-version': '3.5.0',
          'template-url': 'https://example.invalid/acme/templates.git#main',
        },
        null,
        2,
      )}\n`,
    });
    const before = snapshotDir(remoteRoot);
    const untrusted = await run(remoteRoot, 'status');
    expect(untrusted.code).toBe(1);
    // At the template-url key, where the user would change it.
    expect(untrusted.stderr).toContain(
      'metadata.json:5:3: error: the V1 template repository https://example.invalid/acme/templates.git#main (metadata.json) runs Ruby code (its ERB templates), and it is not trusted [V1_UNTRUSTED]',
    );
    expect(untrusted.stderr).toContain('run again with --trust');
    expect(snapshotDir(remoteRoot)).toEqual(before);
  });

  it("PDK's built-in templates (pdk-default) point to convert, saying where the URL was given", async () => {
    const root = v1Project({
      'metadata.json': '{\n  "name": "acme-widget",\n  "template-url": "pdk-default#3.5.1"\n}\n',
    });
    const before = snapshotDir(root);
    const r = await run(root, 'status');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "metadata.json:3:3: error: metadata.json's template-url 'pdk-default#3.5.1' names PDK's built-in templates, which Pantograph does not have: its default templates are V2 and do not read a V1 .sync.yml [V1_DEFAULT_TEMPLATE]",
    );
    expect(r.stderr).toContain(
      'hint: run `pantograph convert` once to move this .sync.yml to V2 for the default templates (it shows the diff first); or name a V1 repository with --template-url, e.g. https://github.com/puppetlabs/pdk-templates#3.5.1',
    );
    // The version the module names is the pdk-templates tag to run (real modules: Ericsson's sudo, Graylog's).
    const sudo = v1Project({
      'metadata.json': '{\n  "name": "ericsson-sudo",\n  "template-url": "pdk-default#3.0.0"\n}\n',
    });
    expect((await run(sudo, 'status')).stderr).toContain(
      "e.g. https://github.com/puppetlabs/pdk-templates#3.0.0 with --trust (PDK 3.0.0's built-in templates are pdk-templates at that tag)",
    );
    const option = await run(root, 'status', '--template-url', 'pdk-default');
    expect(option.code).toBe(1);
    expect(option.stderr).toContain(
      "error: --template-url 'pdk-default' names PDK's built-in templates, which Pantograph does not have",
    );
    expect(option.stderr).not.toContain("--template-url's");
    expect(option.stderr).toContain('e.g. https://github.com/puppetlabs/pdk-templates#3.5.1 with --trust\n');
    expect(snapshotDir(root)).toEqual(before);
  });

  it('a --template-url that is neither a path nor a git URL says so in plain words', async () => {
    const r = await run(v1Project(), 'status', '--template-url', 'nowhere');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "error: --template-url 'nowhere' is neither a path nor a git URL [V1_TEMPLATE_URL]",
    );
  });

  it('a V1 .sync.yml with no V1 repository named keeps the convert message, and names --template-url', async () => {
    const root = v1Project({ 'metadata.json': '{"name": "acme-widget"}' });
    const r = await run(root, 'status');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[SYNC_V1]');
    expect(r.stderr).toContain('--template-url URL[#REF]');
  });

  it('a directory that is not a V1 repository is refused', async () => {
    const notV1 = tempTree({ 'moduleroot/a.txt': 'a' });
    const r = await run(v1Project(), 'status', '--template-url', notV1);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('needs both moduleroot/ and moduleroot_init/ [V1_NOT_V1_REPOSITORY]');
  });
});

describe('without Ruby on the machine (the built command, PATH without ruby)', () => {
  /** A PATH holding only git (the tests' V1 repository is a directory, so git is not even needed). */
  function pathWithoutRuby(): string {
    const dir = tempDir('pantograph-path-');
    const git = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    if (git) symlinkSync(git, join(dir, 'git'));
    return dir;
  }

  function runBin(cwd: string, path: string, ...args: string[]) {
    return spawnSync(process.execPath, [bin, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, PATH: path, NO_COLOR: '1', PANTOGRAPH_RUBY: '' },
    });
  }

  it('a V1 project says what is missing and what to do; a V2 project still works', () => {
    const path = pathWithoutRuby();
    expect(spawnSync('sh', ['-c', 'command -v ruby'], { env: { PATH: path } }).status).not.toBe(0);
    const repo = tempTree(v1Repo());
    const v1 = runBin(v1Project(), path, 'status', '--template-url', repo);
    expect(v1.status).toBe(1);
    expect(v1.stderr).toContain('no Ruby was found [V1_RUBY_MISSING]');
    expect(v1.stderr).toContain('install Ruby');
    expect(v1.stderr).toContain('pantograph convert');

    const v2repo = tempTree({
      'base/template.json': JSON.stringify({
        name: 'base',
        version: '1.0.0',
        always_apply: true,
        default_settings: {},
      }),
      'base/files/hello.txt': 'hello\n',
    });
    const v2 = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${v2repo}\n`,
    });
    const r = runBin(v2, path, 'apply');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(v2, 'hello.txt'), 'utf8')).toBe('hello\n');
  });
});

describe("the deep_merge stand-in (used when the gem is missing) agrees with the gem's knockout merge", () => {
  const gem = spawnSync('ruby', ['-e', "require 'deep_merge/core'"]).status === 0;
  it.skipIf(!gem)('on the cases PDK and pdk-templates meet', () => {
    const dir = tempDir('pantograph-dm-');
    mkdirSync(join(dir, 'ours', 'deep_merge'), { recursive: true });
    const stand = resolve(import.meta.dirname, '../../../ruby/pantograph-v1/deep_merge/core.rb');
    writeFileSync(
      join(dir, 'compare.rb'),
      `
require 'json'
cases = [
  [{ 'a' => [1, 2], 'h' => { 'x' => 1 } }, { 'a' => ['---1', 3], 'h' => { 'y' => 2 } }],
  [{ 'a' => [1, 2] }, { 'a' => ['---'] }],
  [{ 'a' => [1, 2] }, { 'a' => ['---', 5] }],
  [{ 's' => 'old' }, { 's' => '---old' }],
  [{ 's' => 'old' }, { 's' => 'new', 'n' => nil, 'f' => false }],
  [{ 'f' => false, 'z' => nil }, { 'f' => { 'k' => ['---q', 'v'] }, 'z' => [1] }],
  [{ 'h' => { 'a' => 1 } }, { 'h' => 'scalar' }],
  [{ 'h' => 'scalar' }, { 'h' => { 'a' => ['---b'] } }],
  [{ 'l' => [{ 'a' => 1 }] }, { 'l' => [{ 'a' => 1 }, { 'b' => 2 }] }],
  [{ 'l' => [1] }, { 'l' => 'x' }],
]
def run(cases)
  cases.map do |dest, src|
    d = Marshal.load(Marshal.dump(dest)); s = Marshal.load(Marshal.dump(src))
    r = DeepMerge.deep_merge!(s, d, knockout_prefix: '---', preserve_unmergeables: false)
    [r, d]
  end
end
if ARGV[0] == 'ours'
  load ${JSON.stringify(stand)}
else
  require 'deep_merge/core'
end
puts JSON.generate(run(cases))
`,
    );
    const theirs = spawnSync('ruby', [join(dir, 'compare.rb'), 'gem'], { encoding: 'utf8' });
    const ours = spawnSync('ruby', [join(dir, 'compare.rb'), 'ours'], { encoding: 'utf8' });
    expect(ours.stderr).toBe('');
    expect(JSON.parse(ours.stdout)).toEqual(JSON.parse(theirs.stdout));
  });
});

describe("a .sync.yml Ruby's YAML refuses (PDK stops on it): one error at its place, nothing rendered", () => {
  const cases: [string, string, number, number, string, string][] = [
    [
      'an unquoted Ruby symbol key',
      '---\nGemfile:\n  optional:\n    :development:\n      - gem: x\n',
      4,
      5,
      "`:development` is a Ruby symbol to Ruby's YAML, which loads no symbols (Psych::DisallowedClass: Tried to load unspecified class: Symbol)",
      "quote it (':development'), as pdk-templates' own examples do; PDK stops on this file too",
    ],
    [
      'an alias to no anchor',
      '---\nGemfile: &a\n  optional: *b\n',
      3,
      13,
      'the alias *b names no anchor set before it (Psych::BadAlias: Unknown alias: b)',
      'set the anchor (&b) on the value to repeat, above this line, or write the value out here; PDK stops on this file too',
    ],
    [
      'an alias inside its own anchor (Ruby recursed without end)',
      '---\nGemfile: &a\n  optional: *a\n',
      3,
      13,
      'the alias *a is inside the value its anchor names, so the settings contain themselves and merging them never ends (SystemStackError: stack level too deep)',
      'write the value out here, or move the anchor to a value that does not hold this alias; PDK stops on this file too',
    ],
    [
      'an unquoted date',
      '---\ncommon:\n  since: 2024-01-31\n',
      3,
      10,
      "`2024-01-31` is no string to Ruby's YAML, which does not load it here (Psych::DisallowedClass: Tried to load unspecified class: Date)",
      "quote it ('2024-01-31') to mean the string; PDK stops on this file too",
    ],
  ];

  it.each(cases)('%s', async (_name, sync, line, column, message, hint) => {
    const repo = tempTree(v1Repo());
    const root = v1Project({ '.sync.yml': sync });
    const p = await planOf(root, repo);
    expect(p.problems).toEqual([
      { severity: 'error', code: 'V1_CONFIG', message, file: join(root, '.sync.yml'), line, column, hint },
    ]);
    expect(p.files).toEqual([]);
  });

  it('every value Ruby refuses at once, though Ruby names only the first', async () => {
    const repo = tempTree(v1Repo());
    const sync =
      "---\nGemfile:\n  optional:\n    :development: []\nspec/spec_helper.rb:\n  mock_with: :rspec\n  hiera: ':quoted'\n";
    const root = v1Project({ '.sync.yml': sync });
    const p = await planOf(root, repo);
    expect(p.problems.map((x) => [x.code, x.line, x.column, x.message.split(' (')[0]])).toEqual([
      ['V1_CONFIG', 4, 5, "`:development` is a Ruby symbol to Ruby's YAML, which loads no symbols"],
      ['V1_CONFIG', 6, 14, "`:rspec` is a Ruby symbol to Ruby's YAML, which loads no symbols"],
    ]);
  });

  it("each value quotes its own Ruby exception, not the first value's (a Date, a Symbol, an alias)", async () => {
    const repo = tempTree(v1Repo());
    const sync = 'Gemfile:\n  x: 2024-01-31\n  :development: 1\n  y: *nope\n';
    const root = v1Project({ '.sync.yml': sync });
    const p = await planOf(root, repo);
    expect(p.problems.map((x) => [x.line, x.column, x.message])).toEqual([
      [
        2,
        6,
        "`2024-01-31` is no string to Ruby's YAML, which does not load it here (Psych::DisallowedClass: Tried to load unspecified class: Date)",
      ],
      [
        3,
        3,
        "`:development` is a Ruby symbol to Ruby's YAML, which loads no symbols (Psych::DisallowedClass: Tried to load unspecified class: Symbol)",
      ],
      [4, 6, 'the alias *nope names no anchor set before it (Psych::BadAlias: Unknown alias: nope)'],
    ]);
    expect(p.files).toEqual([]);
  });

  it('status prints it once; apply writes nothing', async () => {
    const repo = tempTree(v1Repo());
    const root = v1Project({
      '.sync.yml': '---\nGemfile:\n  optional:\n    :development:\n      - gem: x\n',
    });
    const r = await run(root, 'status', '--template-url', repo);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/error:/g)).toHaveLength(1);
    expect(r.stderr).toContain('.sync.yml:4:5: error: `:development` is a Ruby symbol');
    const before = snapshotDir(root);
    const applied = await run(root, 'apply', '--template-url', repo);
    expect(applied.code).toBe(1);
    expect(snapshotDir(root)).toEqual(before);
  });
});
