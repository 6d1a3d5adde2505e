/**
 * Plans that run at the same time (a fleet's pool, the web and language servers) share the one worker
 * JavaScript hooks run in: what a hook prints after it returned, and the timers it leaves, belong to the
 * plan that ran it, never to the plan whose hook happens to be running then.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lateHookOutput, newHookOwner, runJsHook } from '../../src/engine/js-hooks.js';
import type { HookFile } from '../../src/engine/model.js';
import { planDetailed } from '../../src/engine/plan.js';
import { loadProject } from '../../src/engine/project.js';
import type { Problem } from '../../src/engine/render-plan.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

/** Prints 100 ms after it returned. */
const PRINTS_LATE =
  "export default (state) => {\n  setTimeout(() => console.log('alpha, late'), 100);\n  return state;\n};\n";
/** Runs 400 ms, and leaves a timer running. */
const RUNS_LONG =
  'export default async (state) => {\n  setTimeout(() => {}, 60_000);\n  await new Promise((done) => setTimeout(done, 400));\n  return state;\n};\n';

const at = (problems: readonly Problem[], file: string) => problems.filter((p) => p.file === file);

describe("a JavaScript hook's late print and pending timer, while another plan's hook runs", () => {
  it('are reported by the plan that ran the hook, never by the other', async () => {
    const dir = tempTree({ 'alpha.mjs': PRINTS_LATE, 'beta.mjs': RUNS_LONG });
    const alpha: HookFile = { path: `${dir}/alpha.mjs`, kind: 'mjs' };
    const beta: HookFile = { path: `${dir}/beta.mjs`, kind: 'mjs' };
    const state = { settings: {}, published: {}, files_to_render: [] };
    const a = newHookOwner();
    const b = newHookOwner();
    const logsA: Problem[] = [];
    const logsB: Problem[] = [];
    await runJsHook(alpha, state, 5000, logsA, a);
    // alpha prints while beta runs: the print is alpha's plan's.
    await runJsHook(beta, state, 5000, logsB, b);
    const lateA = await lateHookOutput(a);
    const lateB = await lateHookOutput(b);
    expect(logsA).toEqual([]);
    expect(logsB).toEqual([]);
    expect(lateA.map((p) => [p.code, p.file, p.line, p.message])).toEqual([
      ['HOOK_OUTPUT', alpha.path, 2, 'console.log(), after the hook had returned: alpha, late'],
    ]);
    expect(lateB.map((p) => [p.code, p.file, p.line])).toEqual([['HOOK_PENDING_TIMER', beta.path, 2]]);
  });
});

describe('two plans run concurrently', () => {
  it("each reports its own hooks' late output and timers, and only those", async () => {
    const project = (name: string, hook: string) => {
      const repo = tempTree({
        [`${name}/template.json`]: JSON.stringify({ name, always_apply: true, default_settings: {} }),
        [`${name}/files/${name}.txt.epp`]: `${name}\n`,
        [`${name}/hooks/after_default_settings.mjs`]: hook,
      });
      const root = tempTree({
        '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n`,
      });
      return { root, hook: `${repo}/${name}/hooks/after_default_settings.mjs` };
    };
    const alpha = project('alpha', PRINTS_LATE);
    const beta = project('beta', RUNS_LONG);
    const [pa, pb] = await Promise.all([loadProject(alpha.root), loadProject(beta.root)]);
    const [ra, rb] = await Promise.all([planDetailed(pa), planDetailed(pb)]);
    const problemsA = ra.plan.problems;
    const problemsB = rb.plan.problems;
    expect(at(problemsA, beta.hook)).toEqual([]);
    expect(at(problemsB, alpha.hook)).toEqual([]);
    // alpha's print: late output if it came before alpha's plan ended, else a timer still pending.
    expect(at(problemsA, alpha.hook).map((p) => p.code)).toEqual([
      expect.stringMatching(/^HOOK_(OUTPUT|PENDING_TIMER)$/),
    ]);
    expect(at(problemsB, beta.hook).map((p) => p.code)).toEqual(['HOOK_PENDING_TIMER']);
  });
});
