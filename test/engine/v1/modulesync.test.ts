/**
 * A modulesync configuration run as it is (ruby/pantograph-v1/modulesync.rb): `--template-url` names a
 * repository with `moduleroot/` and no `moduleroot_init/`, and each module gets what `msync update` writes,
 * through `status` and `apply` like any template output. First on real data (voxpupuli's configuration at
 * 10.8.0 over two voxpupuli modules synced with it), then one semantic of modulesync's per test, on a small
 * configuration of our own, with the real system Ruby.
 */
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plan } from '../../../src/engine/plan.js';
import { loadProject } from '../../../src/engine/project.js';
import type { RenderPlan } from '../../../src/engine/render-plan.js';
import { resetGitFetches } from '../../../src/engine/sources/index.js';
import { run, runJson } from '../../cli/cli-helpers.js';
import { snapshotDir, type Tree, tempDir, tempTree } from '../../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../../helpers/git.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/modulesync');
const VOXPUPULI_10_8_0 = join(FIXTURES, 'modulesync_config-10.8.0');

useFreshGitCache();

function output(p: RenderPlan, path: string): string | undefined {
  const f = p.files.find((x) => x.path === path);
  return f && Buffer.from(f.content).toString('utf8');
}

/** A copy of a fixture module in a directory of its own name (msync's `:puppet_module` is that name). */
function realModule(name: string): string {
  const root = join(tempDir('msync-real-'), name);
  cpSync(join(FIXTURES, 'modules', name), root, { recursive: true });
  return root;
}

describe("voxpupuli's modulesync_config 10.8.0 over modules it synced: byte for byte", () => {
  it.each([
    ['puppet-archive', 21],
    ['puppet-autofs', 20],
  ])('%s: every file msync manages is rendered as the module has it', async (name, count) => {
    const root = realModule(name);
    const p = await plan(await loadProject(root, { templateUrl: VOXPUPULI_10_8_0 }));
    expect(p.problems).toEqual([]);
    expect(p.templates.map((t) => t.name)).toEqual(['modulesync']);
    expect(p.files).toHaveLength(count);
    for (const f of p.files) {
      expect(Buffer.from(f.content).toString('utf8'), f.path).toBe(readFileSync(join(root, f.path), 'utf8'));
    }
    // config_defaults.yml's `delete: true` files (none here) and its `unmanaged: true` acceptance helper.
    expect(p.delete).toContain('.travis.yml');
    if (name === 'puppet-autofs') expect(p.unmanaged).toEqual(['spec/spec_helper_acceptance.rb']);
    // puppet-archive sets `unmanaged: false` for it in .sync.yml: managed.
    else expect(p.unmanaged).toEqual([]);
  });

  it('status through the CLI: no drift, nothing written', async () => {
    const root = realModule('puppet-archive');
    const before = snapshotDir(root);
    const r = await run(root, 'status', '--template-url', VOXPUPULI_10_8_0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('21 files in line: no drift');
    expect(snapshotDir(root)).toEqual(before);
  });
});

/** A small modulesync configuration: one semantic of msync's per file. */
function config(extra: Tree = {}): Tree {
  return {
    'modulesync.yml': "---\nnamespace: acme\ngit_base: 'https://git.example.com/'\n",
    'managed_modules.yml': '---\n- puppet-widget\n- other/puppet-gadget\n',
    'config_defaults.yml': `---
:global:
  greeting: hello
  shared: from global
merged.txt:
  nested: { a: 1, b: 1 }
  list: [a, b]
old.txt:
  delete: true
spec:
  unmanaged: true
`,
    'moduleroot/merged.txt.erb':
      "<%= @configs['greeting'] %> <%= @configs['shared'] %> <%= @configs['nested'].inspect %> <%= @configs['list'].inspect %>\n",
    'moduleroot/meta.txt.erb':
      '<%= @metadata[:module_name] %> <%= @metadata[:namespace] %> <%= @configs[:puppet_module] %> <%= @configs[:namespace] %> <%= @configs[:git_base] %> <%= File.basename(@metadata[:workdir]) %> <%= @metadata[:target_file].end_with?("/puppet-widget/meta.txt") %> <%= File.exist?(File.join(@metadata[:workdir], "marker")) %>',
    'moduleroot/crlf.txt.erb': 'one\r\ntwo',
    'moduleroot/not-a-template.txt': 'msync ignores files without .erb\n',
    'moduleroot/bin/run.sh.erb': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    'moduleroot/plain.sh.erb': '#!/bin/sh\n',
    'moduleroot/spec/spec_helper.rb.erb': "# never rendered: 'spec' is unmanaged\n",
    ...extra,
  };
}

const SYNC = `---
:global:
  greeting: hi
merged.txt:
  nested: { a: 2 }
`;

/** A module `puppet-widget` in a directory of that name. */
function widget(files: Tree = {}): string {
  const parent = tempTree({
    'puppet-widget/.msync.yml': "---\nmodulesync_config_version: '1.0.0'\n",
    'puppet-widget/.sync.yml': SYNC,
    'puppet-widget/metadata.json': '{"name": "acme-widget", "version": "1.0.0"}',
    'puppet-widget/old.txt': 'old\n',
    'puppet-widget/marker': '',
    'puppet-widget/plain.sh': { content: '#!/bin/sh\nold\n', mode: 0o755 },
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`puppet-widget/${k}`, v])),
  });
  return join(parent, 'puppet-widget');
}

async function planOf(root: string, repo: string, more: { modulesyncModule?: string } = {}) {
  return plan(await loadProject(root, { templateUrl: repo, ...more }));
}

describe("modulesync's settings and files", () => {
  it('shallow merges: :global of config_defaults.yml, the file key, :global of .sync.yml, the file key of .sync.yml', async () => {
    const p = await planOf(widget(), tempTree(config()));
    expect(p.problems).toEqual([]);
    // No deep merge: .sync.yml's `nested` replaces config_defaults.yml's whole; no `common`.
    expect(output(p, 'merged.txt')).toBe('hi from global {"a"=>2} ["a", "b"]\n');
  });

  it("@metadata and the additional settings: module name, namespace (modulesync.yml), git_base, the module's directory", async () => {
    const p = await planOf(widget(), tempTree(config()));
    expect(output(p, 'meta.txt')).toBe(
      'puppet-widget acme puppet-widget acme https://git.example.com/ puppet-widget true true',
    );
    // `namespace/name` in managed_modules.yml names the module's own namespace, as msync reads it.
    const gadget = await planOf(widget(), tempTree(config()), { modulesyncModule: 'other/puppet-gadget' });
    expect(output(gadget, 'meta.txt')).toMatch(/^puppet-gadget other puppet-gadget other /);
  });

  it('only .erb files are templates; the output is written byte for byte (no newline added, CRLF kept)', async () => {
    const p = await planOf(widget(), tempTree(config()));
    expect(output(p, 'crlf.txt')).toBe('one\r\ntwo');
    expect(p.files.map((f) => f.path)).not.toContain('not-a-template.txt');
    expect(p.files.map((f) => f.path).sort()).toEqual([
      'bin/run.sh',
      'crlf.txt',
      'merged.txt',
      'meta.txt',
      'plain.sh',
    ]);
  });

  it("a template of .sync.yml is left out with a warning: the module's .sync.yml is its settings", async () => {
    const repo = tempTree(config({ 'moduleroot/.sync.yml.erb': '---\n' }));
    const root = widget();
    const p = await planOf(root, repo);
    expect(p.problems).toMatchObject([
      { severity: 'warning', code: 'V1_RENDER', file: join(repo, 'moduleroot/.sync.yml.erb'), line: 1 },
    ]);
    expect(p.files.map((f) => f.path)).not.toContain('.sync.yml');
  });

  it('delete removes a file no template writes; unmanaged on a directory key leaves its files alone', async () => {
    const root = widget({ 'spec/spec_helper.rb': 'mine\n' });
    const status = await run(root, 'status', '--all', '--template-url', tempTree(config()));
    expect(status.stderr).toBe('');
    expect(status.stdout).toMatch(/^delete +old\.txt +- +listed in delete$/m);
    expect(status.stdout).toMatch(/^unmanaged +spec\/spec_helper\.rb +- +listed in unmanaged$/m);
    const applied = await run(root, 'apply', '--yes', '--template-url', tempTree(config()));
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(existsSync(join(root, 'old.txt'))).toBe(false);
    expect(readFileSync(join(root, 'spec/spec_helper.rb'), 'utf8')).toBe('mine\n');
  });

  it("each file takes its template file's mode, as msync chmods it (an execute bit is taken away too)", async () => {
    const root = widget();
    expect((await run(root, 'apply', '--yes', '--template-url', tempTree(config()))).code).toBe(0);
    expect(statSync(join(root, 'bin/run.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, 'plain.sh')).mode & 0o777).toBe(0o644);
  });

  it('hand edits are merged three ways with a new template output; a changed setting is a diff', async () => {
    const remote = tempRemote();
    const long = "top\nline 2\nline 3\nline 4\nline 5\nend <%= @configs['shared'] %>\n";
    remote.tag('1.0.0', remote.commit(config({ 'moduleroot/long.txt.erb': long })));
    remote.tag('2.0.0', remote.commit({ 'moduleroot/long.txt.erb': long.replace('end', 'the end') }));
    const root = widget();
    const at = (ref: string) => ['--template-url', `${remote.url}#${ref}`];
    expect((await run(root, 'apply', '--yes', ...at('1.0.0'))).code).toBe(0);
    expect(readFileSync(join(root, '.pantograph.lock'), 'utf8')).toContain('"modulesync"');
    writeFileSync(
      join(root, 'long.txt'),
      'top, edited by hand\nline 2\nline 3\nline 4\nline 5\nend from global\n',
    );
    resetGitFetches();
    const r = await run(root, 'apply', ...at('2.0.0'));
    expect([r.code, r.stdout]).toEqual([
      1,
      'conflict  long.txt: merged cleanly with the new template output: review it\n',
    ]);
    expect(readFileSync(join(root, 'long.txt'), 'utf8')).toBe(
      'top, edited by hand\nline 2\nline 3\nline 4\nline 5\nthe end from global\n',
    );
    expect((await run(root, 'resolve', 'long.txt')).code).toBe(0);
    writeFileSync(join(root, '.sync.yml'), SYNC.replace('greeting: hi', 'greeting: hey'));
    const noop = await run(root, 'apply', '--noop', '--diff', ...at('2.0.0'));
    expect(noop.stdout).toContain('-hi from global');
    expect(noop.stdout).toContain('+hey from global');
    expect((await run(root, 'apply', ...at('2.0.0'))).code).toBe(0);
    expect(readFileSync(join(root, 'merged.txt'), 'utf8')).toMatch(/^hey from global /);
    expect(readFileSync(join(root, 'long.txt'), 'utf8')).toMatch(/^top, edited by hand\n/);
  });
});

describe('the configuration an earlier run used, from the lock', () => {
  it('status, apply and update need no --template-url after one apply, and say where it came from', async () => {
    const repoDir = tempTree(config());
    const root = widget();
    expect((await run(root, 'apply', '--yes', '--template-url', repoDir)).code).toBe(0);
    const note = `note: the modulesync configuration is ${repoDir}, which an earlier run recorded in .pantograph.lock (--template-url names another)\n`;
    const status = await run(root, 'status');
    expect([status.code, status.stderr]).toEqual([0, note]);
    expect(status.stdout).toContain('no drift');
    // A change of the configuration reaches the module by a plain apply.
    writeFileSync(join(repoDir, 'moduleroot/merged.txt.erb'), "<%= @configs['greeting'] %> again\n");
    const applied = await run(root, 'apply');
    expect([applied.code, applied.stderr]).toEqual([0, note]);
    expect(readFileSync(join(root, 'merged.txt'), 'utf8')).toBe('hi again\n');
    expect((await run(root, 'update')).code).toBe(0);
    // --template-url still names another, and the lock then records that one.
    const other = tempTree(config({ 'moduleroot/merged.txt.erb': 'other\n' }));
    const switched = await run(root, 'apply', '--template-url', other);
    expect([switched.code, switched.stderr]).toEqual([0, '']);
    expect(readFileSync(join(root, 'merged.txt'), 'utf8')).toBe('other\n');
    expect((await run(root, 'status')).stderr).toContain(`configuration is ${other}, which an earlier run`);
  });

  it('a configuration named by a relative path is recorded relative to the module: the lock names no path of this disk', async () => {
    const root = widget();
    cpSync(tempTree(config()), join(root, '..', 'modulesync_config'), { recursive: true });
    expect((await run(root, 'apply', '--yes', '--template-url', '../modulesync_config')).code).toBe(0);
    const lock = JSON.parse(readFileSync(join(root, '.pantograph.lock'), 'utf8'));
    expect(lock.sources).toEqual([{ type: 'filesystem', location: '../modulesync_config' }]);
    // Read back from the lock on another checkout: the module and its configuration side by side elsewhere.
    const elsewhere = join(tempDir('msync-moved-'), 'puppet-widget');
    cpSync(join(root, '..'), join(elsewhere, '..'), { recursive: true });
    const status = await run(elsewhere, 'status');
    expect([status.code, status.stderr]).toEqual([
      0,
      'note: the modulesync configuration is ../modulesync_config, which an earlier run recorded in .pantograph.lock (--template-url names another)\n',
    ]);
    // A lock an older version wrote, with the absolute path, is still read (the first test above), and an
    // apply naming the configuration relatively records it relatively from then on.
  });

  it('grants no trust: a git URL from the lock still needs --trust, a directory inside the project is refused', async () => {
    const lock = (location: string, ref?: string) =>
      `${JSON.stringify(
        {
          lockVersion: 1,
          engineVersion: '0.1.0',
          sources: [{ type: ref ? 'git' : 'filesystem', location, ...(ref ? { ref } : {}) }],
          templates: [{ name: 'modulesync', source: 0, settings: {} }],
          directories: [],
          files: {},
        },
        null,
        2,
      )}\n`;
    const url = 'https://example.invalid/acme/modulesync_config.git';
    const root = widget({ '.pantograph.lock': lock(url, '1.0.0') });
    const before = snapshotDir(root);
    const r = await run(root, 'status');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `.pantograph.lock:7:7: error: the modulesync configuration ${url}#1.0.0 (recorded in .pantograph.lock by an earlier run) runs Ruby code (its ERB templates), and it is not trusted [V1_UNTRUSTED]`,
    );
    expect(snapshotDir(root)).toEqual(before);
    const inside = widget({ 'evil/config_defaults.yml': '---\n', 'evil/moduleroot/x.erb': '<%= `id` %>' });
    writeFileSync(join(inside, '.pantograph.lock'), lock(join(inside, 'evil')));
    const refused = await run(inside, 'apply');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `error: the repository '${join(inside, 'evil')}' an earlier run recorded in .pantograph.lock is a directory inside the project: its Ruby is not run on the lock's word [V1_TEMPLATE_URL]`,
    );
    expect(existsSync(join(inside, 'x'))).toBe(false);
  });
});

describe('modulesync errors: where, what to do, nothing written', () => {
  it('a configured file with no template, delete or unmanaged: msync stops on it; an error at its key', async () => {
    const root = widget({ '.sync.yml': `${SYNC}missing.txt:\n  some: setting\n` });
    const before = snapshotDir(root);
    const r = await run(root, 'apply', '--template-url', tempTree(config()));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('.sync.yml:6:1: error: missing.txt: Errno::ENOENT:');
    expect(r.stderr).toContain('moduleroot/ has no template for it (missing.txt.erb)');
    expect(r.stderr).toContain(
      'hint: set `delete: true` or `unmanaged: true` under it, remove the key, or add the template to the configuration; msync stops on this module too',
    );
    expect(snapshotDir(root)).toEqual(before);
  });

  it("a .sync.yml Ruby's YAML refuses (a date) is an error at the value; a Symbol is fine, as msync loads it", async () => {
    const root = widget({ '.sync.yml': `${SYNC}merged.txt:\n  when: 2024-01-31\n  sym: :yes\n` });
    const { json, code } = await runJson<{
      problems: { code: string; line: number; column: number; hint: string }[];
    }>(root, 'validate', '--template-url', tempTree(config()));
    expect(code).toBe(1);
    const errors = json.problems.filter((x) => x.code === 'V1_CONFIG');
    expect(errors.map((x) => [x.line, x.column])).toEqual([[7, 9]]);
    expect(errors[0]!.hint).toContain('msync stops on this file too');
  });

  it('a key given twice is read as Ruby reads it (the last wins), with a warning in msync words', async () => {
    const root = widget({ '.sync.yml': `${SYNC}merged.txt:\n  nested: { a: 3 }\n` });
    const p = await planOf(root, tempTree(config()));
    const twice = p.problems.filter((x) => x.code === 'SYNC_YAML');
    expect(twice.map((x) => [x.severity, x.line, x.message])).toEqual([
      ['warning', 6, "Map keys must be unique: Ruby's YAML, and so msync, keeps the last one"],
    ]);
    expect(p.problems.filter((x) => x.severity === 'error')).toEqual([]);
  });

  it('an ERB error names the template file and line; the other files are still rendered', async () => {
    const repo = tempTree(config({ 'moduleroot/broken.txt.erb': 'fine\n<%= @configs["nope"].upcase %>\n' }));
    const p = await planOf(widget(), repo);
    expect(p.problems).toMatchObject([
      {
        code: 'V1_RENDER',
        file: join(repo, 'moduleroot/broken.txt.erb'),
        line: 2,
        message: expect.stringContaining("broken.txt: NoMethodError: undefined method `upcase' for nil"),
      },
    ]);
    expect(output(p, 'merged.txt')).toBeDefined();
  });

  it("invalid YAML in the configuration's config_defaults.yml: an error at its line and column", async () => {
    const repo = tempTree(config({ 'config_defaults.yml': '---\nmerged.txt:\n  a: [1\n' }));
    const p = await planOf(widget(), repo);
    // Where Ruby's YAML reports it (the flow sequence never closed).
    expect(p.problems).toMatchObject([
      { code: 'V1_CONFIG', file: join(repo, 'config_defaults.yml'), line: 3, column: 6 },
    ]);
    expect(p.files).toEqual([]);
  });

  it('a git configuration runs Ruby code: refused unless trusted, in modulesync words, before any fetch', async () => {
    const root = widget();
    const before = snapshotDir(root);
    const r = await run(
      root,
      'status',
      '--template-url',
      'https://example.invalid/acme/modulesync_config.git#1.0.0',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error: the modulesync configuration https://example.invalid/acme/modulesync_config.git#1.0.0 (--template-url) runs Ruby code (its ERB templates), and it is not trusted [V1_UNTRUSTED]',
    );
    expect(r.stderr).toContain('run again with --trust; or run `pantograph fleet import-modulesync`');
    expect(snapshotDir(root)).toEqual(before);
  });

  it('a directory without moduleroot/ and config_defaults.yml is no configuration', async () => {
    for (const tree of [{ 'config_defaults.yml': '---\n' }, { 'moduleroot/a.erb': 'a' }]) {
      const r = await run(widget(), 'status', '--template-url', tempTree(tree));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'is not a modulesync configuration: it needs moduleroot/ and config_defaults.yml [V1_NOT_V1_REPOSITORY]',
      );
      expect(r.stderr).toContain("hint: give the modulesync configuration's directory or git URL");
    }
  });
});
