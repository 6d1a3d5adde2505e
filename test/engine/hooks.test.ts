import { afterEach, describe, expect, it } from 'vitest';
import { type HookState, runHook } from '../../src/engine/hooks.js';
import type { HookFile, HookName } from '../../src/engine/model.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const STATE: HookState = {
  template: { name: 'tpl', path: '/repo/tpl', version: '1.0.0' },
  settings: { count: 1n, ratio: 1, list: ['a'] },
  published: { shared: ['x'] },
  files_to_render: ['a.txt', 'b.txt'],
  project: { name: 'acme-widget', is_new: true },
  metadata: { name: 'acme-widget' },
};

/** Writes a hook file and runs it on `state`. */
async function run(
  name: HookName,
  file: string,
  code: string,
  state: HookState = STATE,
  timeLimitMs?: number,
) {
  const dir = tempTree({ [file]: code });
  const hook: HookFile = { path: `${dir}/${file}`, kind: file.endsWith('.pp') ? 'pp' : 'mjs' };
  const outcome = await runHook(name, hook, state, timeLimitMs === undefined ? {} : { timeLimitMs });
  return { ...outcome, path: hook.path };
}

describe('Puppet (.pp) hooks', () => {
  it('returns the new state, keeping Integers and Floats apart', async () => {
    const { state, problems } = await run(
      'after_project_settings',
      'h.pp',
      `$s = $state['settings']
$state + { 'settings' => $s + { 'count' => $s['count'] + 1, 'extra' => "${'$'}{s['ratio']}" },
           'published' => { 'shared' => ['x', 'y'] } }
`,
    );
    expect(problems).toEqual([]);
    expect(state.settings).toEqual({ count: 2n, ratio: 1, list: ['a'], extra: '1.0' });
    expect(state.published).toEqual({ shared: ['x', 'y'] });
    expect(state.files_to_render).toEqual(['a.txt', 'b.txt']);
  });

  it("says what its notice() and warning() say, at their lines, beside the new state or the hook's error", async () => {
    const ok = await run(
      'after_project_settings',
      'h.pp',
      "notice('count is', $state['settings']['count'])\ndebug('not at the default level')\nwarning('careful')\n$state\n",
    );
    expect(ok.state).toEqual(STATE);
    expect(ok.problems).toEqual([
      {
        severity: 'warning',
        code: 'EPP_LOG',
        message: 'notice(): count is 1',
        file: ok.path,
        line: 1,
        column: 1,
      },
      {
        severity: 'warning',
        code: 'EPP_LOG',
        message: 'warning(): careful',
        file: ok.path,
        line: 3,
        column: 1,
      },
    ]);
    const failed = await run('after_project_settings', 'h.pp', "notice('before the failure')\nfail('no')\n");
    expect(failed.problems.map((p) => [p.severity, p.code])).toEqual([
      ['warning', 'EPP_LOG'],
      ['error', 'HOOK_FAILED'],
    ]);
  });

  it('may remove files to render', async () => {
    const { state, problems } = await run(
      'after_file_resolution',
      'h.pp',
      `$state + { 'files_to_render' => $state['files_to_render'].filter |$f| { $f != 'a.txt' } }`,
    );
    expect(problems).toEqual([]);
    expect(state.files_to_render).toEqual(['b.txt']);
  });

  it('refuses added files', async () => {
    const { state, problems, path } = await run(
      'after_file_resolution',
      'h.pp',
      `$state + { 'files_to_render' => $state['files_to_render'] + ['c.txt'] }`,
    );
    expect(state).toBe(STATE);
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_ADDED_FILES',
        message: "hook after_file_resolution: added files to render ('c.txt'); hooks may only remove files",
        file: path,
        line: 1,
        column: 1,
      },
    ]);
  });

  it('refuses changes to project, metadata and template', async () => {
    for (const key of ['project', 'metadata', 'template']) {
      const { problems } = await run('after_default_settings', 'h.pp', `$state + { '${key}' => {} }`);
      expect(problems.map((p) => [p.code, p.message])).toEqual([
        ['HOOK_CHANGED_READONLY', `hook after_default_settings: changed '${key}', which is read-only`],
      ]);
    }
  });

  it('refuses a change of what is published once it is final', async () => {
    const { problems } = await run('after_file_resolution', 'h.pp', `$state + { 'published' => {} }`);
    expect(problems.map((p) => p.code)).toEqual(['HOOK_CHANGED_READONLY']);
  });

  it('refuses a value that is no state', async () => {
    const { problems } = await run('after_default_settings', 'h.pp', `42`);
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ['HOOK_INVALID_STATE', 'hook after_default_settings: must return the state hash, returned an integer'],
    ]);
    const bad = await run('after_default_settings', 'h.pp', `$state + { 'settings' => [1] }`);
    expect(bad.problems.map((p) => p.code)).toEqual(['HOOK_INVALID_STATE']);
    const regexp = await run('after_default_settings', 'h.pp', `$state + { 'settings' => { 'r' => /x/ } }`);
    expect(regexp.problems.map((p) => p.code)).toEqual(['HOOK_INVALID_STATE']);
  });

  it('refuses an unknown key in the returned state, at the key, with a did-you-mean', async () => {
    const { state, problems, path } = await run(
      'after_project_settings',
      'h.pp',
      `$state + {\n  'setings' => { 'greeting' => 'Bye' } }`,
    );
    expect(state).toBe(STATE);
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_INVALID_STATE',
        message:
          "hook after_project_settings: unknown key 'setings' in the state the hook returned; did you mean 'settings'?",
        file: path,
        line: 2,
        column: 3,
        hint: "a state has only the keys 'template', 'settings', 'published', 'files_to_render', 'project', 'metadata', 'file': make the change under one of them",
      },
    ]);
  });

  it('reports an error in the hook with its position in the hook file', async () => {
    const { problems, path } = await run('after_default_settings', 'h.pp', `$state\n$x = $nosuch`);
    expect(problems).toMatchObject([
      { severity: 'error', code: 'HOOK_FAILED', file: path, line: 2, column: 6 },
    ]);
    expect(problems[0]!.message).toContain('nosuch');
  });

  it('reports a hook that ran past the time limit', async () => {
    const { state, problems } = await run('after_default_settings', 'h.pp', `$state`, STATE, 0);
    expect(state).toBe(STATE);
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      ['HOOK_TIMEOUT', 'hook after_default_settings: ran longer than 0 s (measured when it returned)'],
    ]);
    // No one line is at fault: the error is at the file, not at a made-up line 1.
    expect(problems[0]).toMatchObject({ file: expect.stringMatching(/h\.pp$/) });
    expect(problems[0]!.line).toBeUndefined();
  });

  it('stops a hook that iterates a huge range, at the loop', async () => {
    const started = Date.now();
    const { problems, path } = await run(
      'after_default_settings',
      'h.pp',
      `$state\nInteger[0, 9223372036854775806].each |$i| { }\n$state`,
      STATE,
      200,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(problems).toMatchObject([
      {
        code: 'HOOK_TIMEOUT',
        message: 'hook after_default_settings: ran longer than 0.2 s',
        file: path,
        line: 2,
        column: 32, // the `.` of `.each`, where Puppet places a method call
      },
    ]);
  });

  it('has no file access', async () => {
    const { problems } = await run('after_default_settings', 'h.pp', `$x = epp('/etc/passwd')\n$state`);
    expect(problems.map((p) => [p.code, p.line])).toEqual([['HOOK_FAILED', 1]]);
  });
});

describe('JavaScript (.mjs) hooks', () => {
  it('maps state to state, async allowed; numbers come back as Integers unless they were Floats', async () => {
    const { state, problems } = await run(
      'after_shared_settings',
      'h.mjs',
      `export default async (state) => ({ ...state, settings: { ...state.settings, count: state.settings.count + 1, added: 7 } });`,
    );
    expect(problems).toEqual([]);
    expect(state.settings).toEqual({ count: 2n, ratio: 1, list: ['a'], added: 7n });
  });

  it('stops a hook that runs too long', async () => {
    const { problems } = await run(
      'after_default_settings',
      'h.mjs',
      `export default () => new Promise(() => {});`,
      STATE,
      1000,
    );
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      [
        'HOOK_TIMEOUT',
        'hook after_default_settings: ran longer than 1 s, waiting for a promise that never settled',
      ],
    ]);
  });

  it('stops a hook that loops forever, and runs the next hook normally', async () => {
    const { problems } = await run(
      'after_default_settings',
      'h.mjs',
      `export default () => { for (;;) {} };`,
      STATE,
      1000,
    );
    expect(problems.map((p) => p.code)).toEqual(['HOOK_TIMEOUT']);
    const next = await run('after_default_settings', 'h.mjs', `export default (s) => s;`);
    expect(next.problems).toEqual([]);
    expect(next.state.settings).toEqual(STATE.settings);
  });

  it('says where a hook stopped at its time limit was: the line of a loop, in a module it imports', async () => {
    const dir = tempTree({
      'lib/wait.mjs': `export function waitForLock(held) {\n  while (held()) {}\n}\n`,
      'h.mjs': `import { waitForLock } from './lib/wait.mjs';\n\nexport default (state) => {\n  waitForLock(() => true);\n  return state;\n};\n`,
    });
    const hook: HookFile = { path: `${dir}/h.mjs`, kind: 'mjs' };
    const { problems } = await runHook('after_default_settings', hook, STATE, { timeLimitMs: 1000 });
    expect(problems.map((p) => [p.code, p.message, p.file, p.line])).toEqual([
      [
        'HOOK_TIMEOUT',
        'hook after_default_settings: ran longer than 1 s, stopped here in waitForLock()',
        `${dir}/lib/wait.mjs`,
        2,
      ],
    ]);
    expect(problems[0]!.hint).toContain('a loop that never ends');
  });

  it('places a hook stopped while waiting at its export default, not at line 1', async () => {
    const { problems, path } = await run(
      'after_default_settings',
      'h.mjs',
      `import { setTimeout } from 'node:timers/promises';\n\n// waits for a reply that never comes\nexport default async (state) => {\n  await new Promise(() => {});\n  return state;\n};\n`,
      STATE,
      1000,
    );
    expect(problems.map((p) => [p.code, p.message, p.file, p.line, p.column])).toEqual([
      [
        'HOOK_TIMEOUT',
        'hook after_default_settings: ran longer than 1 s, waiting for a promise that never settled',
        path,
        4,
        1,
      ],
    ]);
    expect(problems[0]!.hint).toContain('everything the hook awaits must settle');
  });

  it('runs concurrent calls one at a time, each getting its own answer', async () => {
    const dir = tempTree({
      'slow.mjs': `export default (s) => new Promise((r) => setTimeout(() => r({ ...s, settings: { who: 'slow' } }), 50));`,
      'fast.mjs': `export default (s) => ({ ...s, settings: { who: 'fast' } });`,
    });
    const [slow, fast] = await Promise.all([
      runHook('after_default_settings', { path: `${dir}/slow.mjs`, kind: 'mjs' }, STATE),
      runHook('after_default_settings', { path: `${dir}/fast.mjs`, kind: 'mjs' }, STATE),
    ]);
    expect([slow.state.settings, fast.state.settings]).toEqual([{ who: 'slow' }, { who: 'fast' }]);
  });

  it('reports what it prints as warnings at the printing line, the first 20 calls, beside its state or error', async () => {
    const ok = await run(
      'after_default_settings',
      'h.mjs',
      `export default (s) => {
  console.log('count is', s.settings.count, { a: 1 });
  process.stderr.write('raw\\n');
  for (let i = 0; i < 100; i++) console.error('line ' + i);
  return s;
};
`,
    );
    expect(ok.state).toEqual(STATE);
    expect(ok.problems.slice(0, 3)).toEqual([
      {
        severity: 'warning',
        code: 'HOOK_OUTPUT',
        message: 'console.log(): count is 1 { a: 1 }',
        file: ok.path,
        line: 2,
        column: 11,
      },
      {
        severity: 'warning',
        code: 'HOOK_OUTPUT',
        message: 'process.stderr.write(): raw',
        file: ok.path,
        line: 3,
        column: 18,
      },
      {
        severity: 'warning',
        code: 'HOOK_OUTPUT',
        message: 'console.error(): line 0',
        file: ok.path,
        line: 4,
        column: 41,
      },
    ]);
    expect(ok.problems).toHaveLength(21);
    expect(ok.problems[20]).toMatchObject({
      code: 'HOOK_OUTPUT',
      message: 'and 82 more calls that printed, not shown (the first 20 are)',
      hint: expect.stringContaining('print only while debugging'),
    });

    const failed = await run(
      'after_default_settings',
      'h.mjs',
      `export default () => {\n  console.log('about to fail');\n  throw new Error('nope');\n};\n`,
    );
    expect(failed.problems.map((p) => [p.severity, p.code, p.message, p.line])).toEqual([
      ['warning', 'HOOK_OUTPUT', 'console.log(): about to fail', 2],
      ['error', 'HOOK_FAILED', 'hook after_default_settings: nope', 3],
    ]);
    // The next run starts with nothing printed.
    const quiet = await run('after_default_settings', 'h.mjs', 'export default (s) => s;');
    expect(quiet.problems).toEqual([]);
  });

  it('reports what a stopped hook printed, the last of it in the HOOK_TIMEOUT error', async () => {
    const { problems, path } = await run(
      'after_default_settings',
      'h.mjs',
      `export default () => {\n  console.log('fetching the list');\n  console.log('waiting for', 'the lock');\n  for (;;) {}\n};\n`,
      STATE,
      1000,
    );
    expect(problems.map((p) => [p.severity, p.code, p.message, p.file, p.line])).toEqual([
      ['warning', 'HOOK_OUTPUT', 'console.log(): fetching the list', path, 2],
      ['warning', 'HOOK_OUTPUT', 'console.log(): waiting for the lock', path, 3],
      [
        'error',
        'HOOK_TIMEOUT',
        'hook after_default_settings: ran longer than 1 s, stopped here; the last it printed: console.log(): waiting for the lock',
        path,
        4, // the loop it was stopped in
      ],
    ]);
  });

  it('keeps a stopped hook that prints in a loop to the first 20 calls and a count', async () => {
    const { problems } = await run(
      'after_default_settings',
      'h.mjs',
      `export default () => { for (let i = 0; ; i++) console.log('tick ' + i); };\n`,
      STATE,
      1000,
    );
    expect(problems).toHaveLength(22);
    expect(problems[19]!.message).toBe('console.log(): tick 19');
    expect(problems[20]!.message).toMatch(/^and at least \d+ more calls that printed, not shown/);
    expect(problems[21]!.message).toBe('hook after_default_settings: ran longer than 1 s, stopped here');
    expect(problems[21]!.line).toBe(1);
  });

  it("reports what a hook prints after it returned at that hook, never as the next hook's output", async () => {
    const early = await run(
      'after_default_settings',
      'early.mjs',
      `export default (s) => {\n  setTimeout(() => console.log('done later'), 20);\n  return s;\n};\n`,
    );
    expect(early.problems).toEqual([]);
    await new Promise((r) => setTimeout(r, 150));
    const next = await run(
      'after_default_settings',
      'next.mjs',
      `export default (s) => {\n  console.log('mine');\n  return s;\n};\n`,
    );
    expect(next.problems.map((p) => [p.code, p.message, p.file, p.line])).toEqual([
      ['HOOK_OUTPUT', 'console.log(), after the hook had returned: done later', early.path, 2],
      ['HOOK_OUTPUT', 'console.log(): mine', next.path, 2],
    ]);
    expect(next.problems[0]!.hint).toContain('did not await');
    // Said once: the run after that has nothing of it.
    const quiet = await run('after_default_settings', 'h.mjs', 'export default (s) => s;');
    expect(quiet.problems).toEqual([]);

    // Printed while the next hook runs, one that is then stopped at its time limit: still said, at its hook.
    const again = await run(
      'after_default_settings',
      'again.mjs',
      `export default (s) => {\n  setTimeout(() => console.log('still here'), 20);\n  return s;\n};\n`,
    );
    const stuck = await run(
      'after_default_settings',
      'stuck.mjs',
      'export default () => new Promise(() => {});',
      STATE,
      1000,
    );
    expect(stuck.problems.map((p) => [p.code, p.message, p.file, p.line])).toEqual([
      ['HOOK_OUTPUT', 'console.log(), after the hook had returned: still here', again.path, 2],
      [
        'HOOK_TIMEOUT',
        'hook after_default_settings: ran longer than 1 s, waiting for a promise that never settled',
        stuck.path,
        1,
      ],
    ]);
  });

  it('refuses a returned value that is no data', async () => {
    const { problems } = await run(
      'after_default_settings',
      'h.mjs',
      `export default (s) => ({ ...s, settings: { when: new Date(0) } });`,
    );
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      [
        'HOOK_INVALID_STATE',
        'hook after_default_settings: returned no data at /settings/when: a Date is not data',
      ],
    ]);
  });

  it('refuses an unknown key in the returned state, at the key', async () => {
    const { problems, path } = await run(
      'after_project_settings',
      'h.mjs',
      `export default (s) => ({\n  ...s,\n  setings: { greeting: 'Bye' },\n});`,
    );
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_INVALID_STATE',
        message:
          "hook after_project_settings: unknown key 'setings' in the state the hook returned; did you mean 'settings'?",
        file: path,
        line: 3,
        column: 3,
        hint: "a state has only the keys 'template', 'settings', 'published', 'files_to_render', 'project', 'metadata', 'file': make the change under one of them",
      },
    ]);
  });

  it('reports a hook that throws, or has no default export', async () => {
    const thrown = await run(
      'after_default_settings',
      'h.mjs',
      `export default () => { throw new Error('boom'); };`,
    );
    expect(thrown.problems.map((p) => [p.code, p.message])).toEqual([
      ['HOOK_FAILED', 'hook after_default_settings: boom'],
    ]);
    const none = await run('after_default_settings', 'h.mjs', `export const x = 1;`);
    expect(none.problems.map((p) => p.code)).toEqual(['HOOK_FAILED']);
  });

  it('reports a throw and a syntax error at their line and column in the hook file', async () => {
    const thrown = await run(
      'after_project_settings',
      'h.mjs',
      `export default (s) => {\n  const x = 1;\n  throw new Error('boom');\n};`,
    );
    expect(thrown.problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_FAILED',
        message: 'hook after_project_settings: boom',
        file: thrown.path,
        line: 3,
        column: 9,
      },
    ]);
    const syntax = await run(
      'after_project_settings',
      'h.mjs',
      `export default (s) => {\n  const x = 1;\n  let let = 2;\n};`,
    );
    expect(syntax.problems).toMatchObject([
      { severity: 'error', code: 'HOOK_FAILED', file: syntax.path, line: 3, column: 7 },
    ]);
    expect(syntax.problems[0]!.message).toMatch(/^hook after_project_settings: .*reserved word/);
  });

  it('names the file being rendered when before_file_render fails', async () => {
    const state = { ...STATE, file: { path: 'a.txt', source: 'files/a.txt.epp' } };
    const { problems, path } = await run(
      'before_file_render',
      'h.mjs',
      `export default (s) => {\n  throw new Error('no');\n};`,
      state,
    );
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_FAILED',
        message: "hook before_file_render (rendering 'a.txt'): no",
        file: path,
        line: 2,
        column: 9,
      },
    ]);
  });

  it('reports process.exit() at once, at the call, not as a timeout', async () => {
    const started = Date.now();
    const { problems, path } = await run(
      'after_default_settings',
      'h.mjs',
      `export default (s) => {\n  process.exit(3);\n};`,
      STATE,
      5000,
    );
    expect(Date.now() - started).toBeLessThan(2500);
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'HOOK_FAILED',
        message:
          'hook after_default_settings: ended the worker it runs in (exit code 3), as process.exit() does',
        file: path,
        line: 2,
        column: 3,
        hint: 'a hook returns the new state; to stop with an error, throw one',
      },
    ]);
    const next = await run('after_default_settings', 'h.mjs', `export default (s) => s;`);
    expect(next.problems).toEqual([]);
  });

  it('refuses before_file_render changes to the file list', async () => {
    const state = { ...STATE, file: { path: 'a.txt', source: 'files/a.txt' } };
    const { problems } = await run(
      'before_file_render',
      'h.mjs',
      `export default (s) => ({ ...s, files_to_render: ['b.txt'] });`,
      state,
    );
    expect(problems.map((p) => p.code)).toEqual(['HOOK_CHANGED_READONLY']);
    const file = await run(
      'before_file_render',
      'h.mjs',
      `export default (s) => ({ ...s, file: { path: 'x' } });`,
      state,
    );
    expect(file.problems.map((p) => p.code)).toEqual(['HOOK_CHANGED_READONLY']);
  });
});
