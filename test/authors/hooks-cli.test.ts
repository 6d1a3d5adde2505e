/**
 * A template author's hooks and partials through the built CLI, as an author runs it: a hook stopped at
 * its time limit is placed where it was, what a hook prints after the last hook returned is still said,
 * a timer a hook leaves running is pointed at, and a misspelt partial gets the name meant. On an error
 * the project is left as it was.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, type Tree, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function cli(cwd: string, ...args: string[]) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

/** A repository with one always-applied template `greet`, its files and hooks given; and a project using it. */
function project(files: Tree): { root: string; repo: string } {
  const repo = tempTree({
    'greet/template.json': JSON.stringify({
      name: 'greet',
      always_apply: true,
      default_settings: { who: 'world' },
    }),
    'greet/files/GREETING.txt.epp': '<%- | String $who | -%>\nHello <%= $who %>\n',
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`greet/${k}`, v])),
  });
  const root = writeTree(tempDir(), {
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n`,
    'GREETING.txt': 'mine\n',
  });
  return { root, repo };
}

describe('a JavaScript hook stopped at its time limit', () => {
  it('is placed at the line it was running, in the module it was in, and nothing is written', () => {
    const { root, repo } = project({
      'hooks/lib/wait.mjs': 'export function waitForLock(held) {\n  while (held()) {}\n}\n',
      'hooks/after_default_settings.mjs':
        "import { waitForLock } from './lib/wait.mjs';\n\nexport default (state) => {\n  console.log('waiting for the lock');\n  waitForLock(() => true);\n  return state;\n};\n",
    });
    const before = snapshotDir(root);
    const r = cli(root, 'apply', '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/hooks/lib/wait.mjs:2:3: error: hook after_default_settings: ran longer than 5 s, stopped here in waitForLock(); the last it printed: console.log(): waiting for the lock [HOOK_TIMEOUT]`,
    );
    expect(r.stderr).toContain('> 2 |   while (held()) {}');
    expect(r.stderr).toContain('hint: a loop that never ends is the usual cause');
    expect(r.stderr).toContain('nothing was written');
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('what a JavaScript hook does after it returned', () => {
  it('is said after the last hook too: a late print at its line, a timer left running where it was started', () => {
    const { root, repo } = project({
      'hooks/after_default_settings.mjs':
        "import { setTimeout as later } from 'node:timers';\nexport default (state) => {\n  later(() => console.log('much later'), 60_000);\n  return state;\n};\n",
      // The last hook: what it prints once it has returned has no next hook's run to be reported in.
      'hooks/after_project_settings.mjs':
        "export default (state) => {\n  setImmediate(() => console.log('done'));\n  return state;\n};\n",
    });
    const r = cli(root, 'validate');
    expect(r.code).toBe(0);
    const hooks = `${repo}/greet/hooks`;
    expect(r.stderr).toContain(
      `${hooks}/after_project_settings.mjs:2:30: warning: console.log(), after the hook had returned: done [HOOK_OUTPUT]`,
    );
    expect(r.stderr).toContain(
      `${hooks}/after_default_settings.mjs:3:3: warning: setTimeout() still pending when the hooks were done: the command ends without it, and what it prints is not seen [HOOK_PENDING_TIMER]`,
    );
    expect(r.stderr).toContain("hint: a hook's work ends when it returns: await the timer");
    // The timer left running does not keep the command waiting.
    expect(r.ms).toBeLessThan(30_000);
  });
});

describe('a partial that is not there', () => {
  it('is an error at the epp() call with the partial meant, and nothing is written', () => {
    const { root, repo } = project({
      'files/GREETING.txt.epp':
        "<%- | String $who | -%>\n<%= epp('partials/foter.epp', { 'who' => $who }) -%>\n",
      'partials/footer.epp': '<%- | String $who | -%>\nbye <%= $who %>\n',
    });
    const before = snapshotDir(root);
    const r = cli(root, 'apply', '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/files/GREETING.txt.epp:2:5: error: Error while evaluating a Function Call, Could not find template 'partials/foter.epp' [EPP_TEMPLATE_NOT_FOUND]`,
    );
    expect(r.stderr).toContain("hint: did you mean 'partials/footer.epp'?");
    expect(snapshotDir(root)).toEqual(before);
  });

  it('with no near miss, names where epp() paths are taken from and the files there', () => {
    const { root, repo } = project({
      'files/GREETING.txt.epp': "<%= epp('footer.epp', {}) %>\n",
      'partials/signature.epp': 'bye\n',
    });
    const r = cli(root, 'status');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `hint: epp() paths are relative to ${repo}/greet, whose .epp files are 'files/GREETING.txt.epp', 'partials/signature.epp'`,
    );
  });
});

describe('a template whose JavaScript hooks an untrusted source may not run', () => {
  it('is the one error: its subscribers get what its template.json publishes, not a null to fail on', () => {
    const repo = tempTree({
      'greet/template.json': JSON.stringify({
        name: 'greet',
        always_apply: true,
        default_settings: {},
        shared_settings: { checks: { description: 'Checks.', value: ['lint'] } },
      }),
      'greet/files/GREETING.txt': 'Hello\n',
      'greet/hooks/after_default_settings.mjs': 'export default (state) => state;\n',
      'ci/template.json': JSON.stringify({
        name: 'ci',
        always_apply: true,
        setting_subscriptions: ['checks'],
      }),
      'ci/files/ci.txt.epp': '<% $checks.each |$c| { -%>\ncheck: <%= $c %>\n<% } -%>\n',
    });
    const root = writeTree(tempDir(), {
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n      trusted: false\n`,
    });
    const r = cli(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(".sync.yml:4:7: error: template 'greet' has JavaScript hooks");
    expect(r.stderr).toContain('[HOOK_UNTRUSTED]');
    expect(r.stderr).not.toContain('EPP_ARGUMENTS');
    expect(r.stderr).toContain('1 error in the plan: nothing was written');
    expect(snapshotDir(root)).toEqual({ '.sync.yml': expect.any(String) });
  });
});

describe('a hook that returns the wrong thing', () => {
  it('that changes the state in place and returns nothing: said so, at its export default, with the fix', () => {
    const { root, repo } = project({
      'hooks/after_default_settings.mjs':
        "import { join } from 'node:path';\n\nexport default (state) => {\n  state.settings.who = join('a', 'b');\n};\n",
    });
    const before = snapshotDir(root);
    const r = cli(root, 'apply', '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/hooks/after_default_settings.mjs:3:1: error: hook after_default_settings: must return the state hash, returned nothing [HOOK_INVALID_STATE]`,
    );
    expect(r.stderr).toContain('hint: return the state, changed: `return { ...state');
    expect(snapshotDir(root)).toEqual(before);
  });

  it("whose setting breaks the schema: the error is in the hook, where it sets it, not at template.json's default", () => {
    const { root, repo } = project({
      'template_schema.json': JSON.stringify({ type: 'object', properties: { who: { type: 'string' } } }),
      'hooks/after_default_settings.mjs':
        'export default (state) => ({\n  ...state,\n  settings: { ...state.settings, who: 42 },\n});\n',
    });
    const before = snapshotDir(root);
    const r = cli(root, 'apply', '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/hooks/after_default_settings.mjs:3:34: error: greet: setting 'who' must be a string [SETTINGS_INVALID]`,
    );
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('a hook after the settings were validated that changes a declared setting', () => {
  const schema = JSON.stringify(
    {
      type: 'object',
      properties: { who: { type: 'string' }, port: { type: 'integer' }, mode: { enum: ['fast', 'safe'] } },
    },
    null,
    2,
  );
  const files = {
    'template_schema.json': schema,
    'files/GREETING.txt.epp':
      '<%- | String $who, $port = 1, $mode = fast | -%>\nHello <%= $who %> <%= $port %> <%= $mode %>\n',
  };

  it('to a value its schema refuses (.pp after_project_settings): an error at the hook line, the rule named, nothing written', () => {
    const { root, repo } = project({
      ...files,
      'hooks/after_project_settings.pp':
        "# derive the port\n$state + { 'settings' => $state['settings'] + {\n  'port' => \"80\",\n} }\n",
    });
    const before = snapshotDir(root);
    const r = cli(root, 'apply', '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/hooks/after_project_settings.pp:3:3: error: greet: hook after_project_settings sets setting 'port' to "80", which its schema refuses: must be a whole number [SETTINGS_INVALID]`,
    );
    expect(r.stderr).toContain("hint: template_schema.json:7:13 declares 'port'");
    expect(r.stderr).toContain('nothing was written');
    expect(snapshotDir(root)).toEqual(before);
  });

  it('to an enum value not listed (.mjs after_file_resolution, an assignment): at the line that assigns it', () => {
    const { root, repo } = project({
      ...files,
      'hooks/after_file_resolution.mjs':
        "export default (state) => {\n  const settings = { ...state.settings };\n  settings.mode = 'quick';\n  return { ...state, settings };\n};\n",
    });
    const before = snapshotDir(root);
    const r = cli(root, 'apply', '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/hooks/after_file_resolution.mjs:3:12: error: greet: hook after_file_resolution sets setting 'mode' to "quick", which its schema refuses: must be one of "fast", "safe" [SETTINGS_INVALID]`,
    );
    expect(snapshotDir(root)).toEqual(before);
  });

  it('per file in before_file_render: names the file being rendered', () => {
    const { root, repo } = project({
      ...files,
      'hooks/before_file_render.mjs':
        'export default (state) => ({ ...state, settings: { ...state.settings, who: [state.file.path] } });\n',
    });
    const r = cli(root, 'validate');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/hooks/before_file_render.mjs:1:71: error: greet: hook before_file_render (rendering GREETING.txt) sets setting 'who' to ["GREETING.txt"], which its schema refuses: must be a string [SETTINGS_INVALID]`,
    );
  });

  it('keeps the freedom of names the schema does not declare, and of values it allows', () => {
    const { root } = project({
      ...files,
      'files/GREETING.txt.epp':
        '<%- | String $who, $port = 1, $mode = fast, $derived = none | -%>\nHello <%= $who %> <%= $port %> <%= $mode %> <%= $derived %>\n',
      'hooks/after_project_settings.pp':
        "$state + { 'settings' => $state['settings'] + { 'port' => 80, 'mode' => 'safe', 'derived' => [1, 'two'] } }\n",
    });
    const r = cli(root, 'apply', '--force');
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, 'GREETING.txt'), 'utf8')).toBe('Hello world 80 safe [1, two]\n');
  });

  it('that a schema requires, removed by the hook: said so at the hook, nothing written', () => {
    const { root, repo } = project({
      ...files,
      'template_schema.json': JSON.stringify({ ...JSON.parse(schema), required: ['who'] }),
      'hooks/after_project_settings.pp': "$state + { 'settings' => $state['settings'] - 'who' }\n",
    });
    const before = snapshotDir(root);
    const r = cli(root, 'apply', '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${repo}/greet/hooks/after_project_settings.pp:1:1: error: greet: hook after_project_settings removes setting 'who', which its schema requires [SETTINGS_INVALID]`,
    );
    expect(snapshotDir(root)).toEqual(before);
  });
});
