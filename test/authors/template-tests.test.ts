import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRepository } from '../../src/engine/template-repository.js';
import { runTemplateTests } from '../../src/engine/template-tests.js';
import { run, runAtWidth, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, type Tree, tempTree } from '../helpers/fs.js';

afterEach(removeTempDirs);

const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]);
const SYNC = 'pdk_template:\n  version: 2\n  templates: [motd]\n';

/** `tree` with every path under `prefix`. */
function prefixed(prefix: string, tree: Tree): Tree {
  return Object.fromEntries(Object.entries(tree).map(([path, content]) => [`${prefix}${path}`, content]));
}

/** A repository with one template `motd` and a passing case `default`. */
function repoTree(extra: Tree = {}): Tree {
  return {
    'motd/template.json': JSON.stringify({ name: 'motd', default_settings: { message: 'hello', lines: [] } }),
    'motd/files/motd.epp':
      '<%- | String $message, Array $lines | -%>\n<%= $message %>\n<% $lines.each |$l| { -%>\n<%= $l %>\n<% } -%>\n',
    'motd/files/bin/tool': { content: '#!/bin/sh\necho tool\n', mode: 0o755 },
    'motd/files/logo.bin': LOGO,
    'motd/files_init/README.md.epp': "# <%= $project['name'] %>\n",
    'motd/tests/default/.sync.yml': SYNC,
    'motd/tests/default/expected/motd': 'hello\n',
    'motd/tests/default/expected/bin/tool': { content: '#!/bin/sh\necho tool\n', mode: 0o755 },
    'motd/tests/default/expected/logo.bin': LOGO,
    'motd/tests/default/expected/README.md': '# default\n',
    ...extra,
  };
}

describe('pantograph test', () => {
  it('passes a case whose output matches expected/, byte for byte and by mode', async () => {
    const repo = tempTree(repoTree());
    expect(await run(repo, 'test')).toEqual({
      code: 0,
      stdout: 'PASS motd/default\n1 passed, 0 failed\n',
      stderr: '',
    });
  });

  it('fails a case with a unified diff per differing file, and exits 1', async () => {
    const repo = tempTree(
      repoTree({
        'motd/tests/custom/.sync.yml': `${SYNC}motd:\n  message: hi\n  lines: [one, two]\n`,
        'motd/tests/custom/expected/motd': 'hello\none\n',
        'motd/tests/custom/expected/bin/tool': { content: '#!/bin/sh\necho tool\n', mode: 0o644 },
        'motd/tests/custom/expected/logo.bin': new Uint8Array([0x00, 0x09]),
        'motd/tests/custom/expected/old.txt': 'gone\n',
      }),
    );
    const r = await run(repo, 'test');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'FAIL motd/custom',
        '  README.md: produced, not in expected/',
        '--- /dev/null',
        '+++ actual/README.md',
        '@@ -0,0 +1,1 @@',
        '+# custom',
        '  bin/tool: executable bit differs',
        'expected not executable, got executable',
        '  logo.bin: differs from expected/',
        'Binary files expected/logo.bin and actual/logo.bin differ',
        '  motd: differs from expected/',
        '--- expected/motd',
        '+++ actual/motd',
        '@@ -1,2 +1,3 @@',
        '-hello',
        '+hi',
        ' one',
        '+two',
        '  old.txt: expected, not produced',
        '--- expected/old.txt',
        '+++ /dev/null',
        '@@ -1,1 +0,0 @@',
        '-gone',
        'PASS motd/default',
        '1 passed, 1 failed',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toBe(
      'hint: when the new output is right, run `pantograph test --update motd` to accept it\n',
    );
    // On a terminal 60 columns wide, the hint folds under its text.
    expect((await runAtWidth(60, repo, 'test')).stderr).toBe(
      'hint: when the new output is right, run\n      `pantograph test --update motd` to accept it\n',
    );
  });

  it('hints the --update that works from where it ran, for the templates whose output differs only', async () => {
    const differing = {
      'motd/tests/custom/.sync.yml': `${SYNC}motd:\n  message: hi\n`,
      'motd/tests/custom/expected/motd': 'hello\n',
    };
    const base = tempTree({
      ...prefixed('my-templates/', repoTree(differing)),
      ...prefixed('my-templates/', {
        'other/template.json': JSON.stringify({ name: 'other' }),
        'other/files/other.txt': 'new\n',
        'other/tests/basic/.sync.yml': 'pdk_template:\n  version: 2\n  templates: [other]\n',
        'other/tests/basic/expected/other.txt': 'old\n',
        'quiet/template.json': JSON.stringify({ name: 'quiet' }),
        'quiet/files/q.txt': 'q\n',
        'quiet/tests/basic/.sync.yml': 'pdk_template:\n  version: 2\n  templates: [quiet]\n',
        'quiet/tests/basic/expected/q.txt': 'q\n',
      }),
    });
    const hint = (command: string) => `hint: when the new output is right, run \`${command}\` to accept it\n`;
    // run from elsewhere with -C: the hint carries it, and names the two templates with differences
    const all = await run(base, 'test', '-C', 'my-templates');
    expect(all.code).toBe(1);
    expect(all.stderr).toBe(hint('pantograph test --update -C my-templates motd other'));
    // a selection: the hint accepts no other template's output
    expect((await run(base, 'test', '-C', 'my-templates', 'other', 'quiet')).stderr).toBe(
      hint('pantograph test --update -C my-templates other'),
    );
    // inside a template's directory, the repository is `..`
    expect((await run(join(base, 'my-templates/motd'), 'test')).stderr).toBe(
      hint('pantograph test --update -C .. motd'),
    );
    // and the hint, run as printed, accepts exactly those
    const accepted = await run(base, 'test', '--update', '-C', 'my-templates', 'other');
    expect(accepted.code).toBe(0);
    expect(readFileSync(join(base, 'my-templates/other/tests/basic/expected/other.txt'), 'utf8')).toBe(
      'new\n',
    );
    expect(readFileSync(join(base, 'my-templates/motd/tests/custom/expected/motd'), 'utf8')).toBe('hello\n');
  });

  it('--update rewrites expected/ from the output (modes and binary content kept), then the case passes', async () => {
    const repo = tempTree(
      repoTree({
        'motd/tests/custom/.sync.yml': `${SYNC}motd:\n  message: hi\n`,
        'motd/tests/custom/expected/motd': 'hello\n',
        'motd/tests/custom/expected/old.txt': 'gone\n',
      }),
    );
    const r = await run(repo, 'test', '--update');
    expect(r).toEqual({
      code: 0,
      stdout:
        'UPDATED motd/custom: expected/ rewritten (README.md, bin/tool, logo.bin, motd, old.txt)\nPASS motd/default\n1 passed, 0 failed, 1 updated\n',
      stderr: '',
    });
    const expected = join(repo, 'motd/tests/custom/expected');
    expect(readFileSync(join(expected, 'motd'), 'utf8')).toBe('hi\n');
    expect(new Uint8Array(readFileSync(join(expected, 'logo.bin')))).toEqual(LOGO);
    expect(statSync(join(expected, 'bin/tool')).mode & 0o777).toBe(0o755);
    expect(Object.keys(snapshotDir(expected))).toEqual(['README.md', 'bin/', 'bin/tool', 'logo.bin', 'motd']);
    expect(await run(repo, 'test', 'motd')).toEqual({
      code: 0,
      stdout: 'PASS motd/custom\nPASS motd/default\n2 passed, 0 failed\n',
      stderr: '',
    });
  });

  it('leaves out init files the case already has and unmanaged paths', async () => {
    const repo = tempTree(
      repoTree({
        'motd/tests/existing/.sync.yml':
          'pdk_template:\n  version: 2\n  templates: [motd]\n  unmanaged: [bin]\n',
        'motd/tests/existing/README.md': '# mine\n',
        'motd/tests/existing/expected/motd': 'hello\n',
        'motd/tests/existing/expected/logo.bin': LOGO,
      }),
    );
    const r = await run(repo, 'test');
    expect(r.stdout).toBe('PASS motd/default\nPASS motd/existing\n2 passed, 0 failed\n');
    expect(r.code).toBe(0);
  });

  it('applies just the template when the case has no .sync.yml, in a project named after the case', async () => {
    const repo = tempTree(
      repoTree({
        'motd/tests/bare/expected/motd': 'hello\n',
        'motd/tests/bare/expected/bin/tool': { content: '#!/bin/sh\necho tool\n', mode: 0o755 },
        'motd/tests/bare/expected/logo.bin': LOGO,
        'motd/tests/bare/expected/README.md': '# bare\n',
      }),
    );
    const results = await runTemplateTests(repo, loadRepository(repo).templates);
    expect(results.map((c) => [c.name, c.status, c.differences.length])).toEqual([
      ['bare', 'passed', 0],
      ['default', 'passed', 0],
    ]);
  });

  it("reports a case's planning errors at their place in the case's .sync.yml", async () => {
    const repo = tempTree(
      repoTree({
        'motd/tests/broken/.sync.yml': `# a broken case\n${SYNC}motd:\n  message: 3\n`,
      }),
    );
    const r = await run(repo, 'test');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('FAIL motd/broken\nPASS motd/default\n1 passed, 1 failed\n');
    expect(r.stderr).toContain('motd/tests/broken/.sync.yml:6:12: error:');
    expect(r.stderr).toContain('> 6 |   message: 3');
  });

  it('fails a case that cannot load on its own, the others still run', async () => {
    const repo = tempTree(repoTree({ 'motd/tests/v1/.sync.yml': '# old\nGemfile:\n  required: [rake]\n' }));
    const r = await run(repo, 'test');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('PASS motd/default\nFAIL motd/v1\n1 passed, 1 failed\n');
    expect(r.stderr).toContain('motd/tests/v1/.sync.yml:2:1: error: .sync.yml has no `pdk_template` key');
    expect(r.stderr).toContain('[SYNC_V1]');
  });

  it("names and counts the cases of a template that cannot be read, at its template.json's error", async () => {
    const repo = tempTree(
      repoTree({
        'broken/template.json': '{"name": "broken",\n "default_settings": {}\n',
        'broken/files/b.txt': 'b\n',
        'broken/tests/one/expected/b.txt': 'b\n',
        'broken/tests/two/expected/b.txt': 'b\n',
      }),
    );
    const before = snapshotDir(repo);
    const r = await run(repo, 'test', 'broken', '--update');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        'FAIL broken/one',
        "  not run: template 'broken' cannot be read (above)",
        'FAIL broken/two',
        "  not run: template 'broken' cannot be read (above)",
        '0 passed, 2 failed, 0 updated',
        '',
      ].join('\n'),
    );
    expect(r.stderr).toMatch(/^broken\/template\.json:3:1: error: invalid JSON: .* \[TEMPLATE_JSON\]\n/);
    expect(snapshotDir(repo)).toEqual(before);
    const json = await runJson<{
      cases: { template: string; case: string; status: string }[];
      failed: number;
    }>(repo, 'test');
    expect(json.code).toBe(1);
    expect(json.json.failed).toBe(3); // motd/default too: a source with a broken template fails every plan
    expect(json.json.cases.filter((c) => c.template === 'broken')).toMatchObject([
      { case: 'one', status: 'failed' },
      { case: 'two', status: 'failed' },
    ]);
  });

  it('reports in JSON and never writes into the case without --update', async () => {
    const repo = tempTree(repoTree({ 'motd/tests/default/expected/motd': 'bye\n' }));
    const before = snapshotDir(repo);
    const r = await runJson<{ cases: { status: string; differences: { path: string; kind: string }[] }[] }>(
      repo,
      'test',
    );
    expect(r.code).toBe(1);
    expect(r.json.cases.map((c) => [c.status, c.differences.map((d) => `${d.kind} ${d.path}`)])).toEqual([
      ['failed', ['different motd']],
    ]);
    expect(snapshotDir(repo)).toEqual(before);
  });

  it('an error in a partial names the template, the calling file and line, with a hint; --update writes nothing', async () => {
    // The README's author's guide: a partial with the template's delimiters, called with $metadata['author'],
    // in a case without metadata.json (so the value is undef).
    const repo = tempTree({
      'greet/template.json': JSON.stringify({
        name: 'greet',
        delimiters: ['[%', '%]'],
        default_settings: {},
      }),
      'greet/files/README.txt.epp':
        'hello\n[%= epp("partials/footer.epp", { "who" => $metadata["author"] }) %]\n',
      'greet/partials/footer.epp': '[%- | String $who | -%]\n-- by [%= $who %]\n',
      'greet/tests/basic/.sync.yml': 'pdk_template:\n  version: 2\n  templates: [greet]\n',
      'greet/tests/basic/expected/README.txt': 'hello\n-- by someone\n',
    });
    const before = snapshotDir(repo);
    for (const args of [['test'], ['test', '--update']]) {
      const r = await run(repo, ...args);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^FAIL greet\/basic\n/);
      expect(r.stderr).toBe(
        [
          "greet/partials/footer.epp:1:7: error: template 'greet', file files/README.txt.epp, line 2 renders partials/footer.epp: parameter 'who' expects a String value, got Undef [EPP_TYPE_MISMATCH]",
          '> 1 | [%- | String $who | -%]',
          '    |       ^',
          "  hint: fix the value the call at files/README.txt.epp:2:5 passes (a key missing from $metadata or $settings reads undef), or widen the parameter's type in partials/footer.epp (Optional[...] also takes undef)",
          '',
        ].join('\n'),
      );
      expect(snapshotDir(repo)).toEqual(before);
    }
  });

  it('an error two partials deep names each call on the way', async () => {
    const repo = tempTree({
      'deep/template.json': JSON.stringify({ name: 'deep', default_settings: {} }),
      'deep/files/out.txt.epp': '<%= epp("partials/outer.epp", {}) %>\n',
      'deep/partials/outer.epp':
        'outer\n<% [1].map |$n| { -%>\n<%= epp("partials/inner.epp", { "n" => $n }) %>\n<% } -%>\n',
      'deep/partials/inner.epp': '<%- | String $n | -%>\n<%= $n %>\n',
      'deep/tests/basic/.sync.yml': 'pdk_template:\n  version: 2\n  templates: [deep]\n',
    });
    const r = await run(repo, 'test');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "deep/partials/inner.epp:1:7: error: template 'deep', file files/out.txt.epp, line 1 renders partials/outer.epp, line 3 renders partials/inner.epp: parameter 'n' expects a String value, got Integer [EPP_TYPE_MISMATCH]",
    );
    expect(r.stderr).toContain('hint: fix the value the call at partials/outer.epp:3:5 passes');
  });

  it('keeps the sources a case names', async () => {
    const other = tempTree({
      'motd/template.json': JSON.stringify({ name: 'motd', default_settings: { message: 'x' } }),
      'motd/files/motd.epp': 'from the other repository\n',
    });
    const repo = tempTree(
      repoTree({
        'motd/tests/other/.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${other}\n  templates: [motd]\n`,
        'motd/tests/other/expected/motd': 'from the other repository\n',
      }),
    );
    writeFileSync(join(repo, 'motd/tests/default/expected/motd'), 'hello\n');
    const r = await run(repo, 'test');
    expect(r.stdout).toBe('PASS motd/default\nPASS motd/other\n2 passed, 0 failed\n');
  });
});
