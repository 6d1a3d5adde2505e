/**
 * scripts/profile-summary.mjs, the summary of CPU profiles the README's Development section points to: on
 * a profile whose times are known, each view gives them (per profile, in ms).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve(__dirname, '../../scripts/profile-summary.mjs');

/** main -> plan -> render, and main -> lstat: 3 ms in render, 1 ms in plan itself, 2 ms in lstat. */
function writeProfiles(dir: string, count: number): void {
  const frame = (functionName: string, lineNumber: number) => ({
    functionName,
    url: 'file:///x/main.cjs',
    lineNumber,
    columnNumber: 0,
    scriptId: '1',
  });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)', -1), children: [2] },
      { id: 2, callFrame: frame('main', 9), children: [3, 5] },
      { id: 3, callFrame: frame('plan', 19), children: [4] },
      { id: 4, callFrame: frame('render', 29), children: [] },
      { id: 5, callFrame: frame('lstat', 0), children: [] },
    ],
    startTime: 0,
    endTime: 6000,
    // Each sample's time is the delta written before the next sample.
    samples: [4, 4, 4, 3, 5, 5],
    timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000],
  };
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `p${i}.cpuprofile`), JSON.stringify(profile));
}

function summary(...args: string[]): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-profiles-'));
  writeProfiles(dir, 2);
  const run = spawnSync(process.execPath, [script, dir, ...args], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout.trim().split('\n');
}

describe('profile-summary', () => {
  it('gives self time by function, per profile, largest first', () => {
    expect(summary()).toEqual([
      '2 profiles, 6.0 ms sampled per profile',
      '     3.00 ms  render main.cjs:30',
      '     2.00 ms  lstat main.cjs:1',
      '     1.00 ms  plan main.cjs:20',
    ]);
  });

  it('gives the self time under a function, inclusive times, and the callers of one', () => {
    expect(summary('--under', 'plan').slice(1)).toEqual([
      '     3.00 ms  render main.cjs:30',
      '     1.00 ms  plan main.cjs:20',
    ]);
    expect(summary('--total', 'plan', 'main', 'absent').slice(1)).toEqual([
      '     4.00 ms  plan',
      '     6.00 ms  main',
      '     0.00 ms  absent',
    ]);
    expect(summary('--callers', 'render', '--depth', '2').slice(1)).toEqual(['     3.00 ms  plan < main']);
  });

  it('says what is wrong with a directory without profiles', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-profiles-'));
    const run = spawnSync(process.execPath, [script, dir], { encoding: 'utf8' });
    expect([run.status, run.stderr]).toEqual([
      1,
      `profile-summary: ${dir}: no .cpuprofile files (node --cpu-prof --cpu-prof-dir ${dir} ...)\n`,
    ]);
  });
});
