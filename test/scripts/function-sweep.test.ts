/**
 * scripts/function-sweep.mjs's command line: `--help` prints its usage, and a wrong option, a module path
 * without stdlib or a bad pattern is refused with what is wrong and the usage (exit 2), before anything
 * is written or run (the sweep itself needs Puppet and the build: a report a session runs, not a test).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const script = resolve(__dirname, '../../scripts/function-sweep.mjs');

function sweep(...args: string[]) {
  // A temp directory of its own, so that "nothing written" can be seen.
  const tmp = mkdtempSync(join(tmpdir(), 'pantograph-sweep-cli-'));
  const run = spawnSync(process.execPath, [script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TMPDIR: tmp },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, written: readdirSync(tmp) };
}

describe('function-sweep.mjs command line', () => {
  it('prints its usage for --help and -h', () => {
    for (const flag of ['--help', '-h']) {
      const run = sweep(flag);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^usage: node scripts\/function-sweep\.mjs \[--modulepath DIR\]/);
      expect(run.stdout).toContain('--filter REGEX');
      expect(run.written).toEqual([]);
    }
  });

  it('refuses an unknown option, naming it, with the usage', () => {
    const run = sweep('--bogus');
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^function-sweep: Unknown option '--bogus'\n\nusage: /);
    expect(run.stdout).toBe('');
    expect(run.written).toEqual([]);
  });

  it('refuses a module path without stdlib and a pattern that is no regular expression', () => {
    const empty = mkdtempSync(join(tmpdir(), 'pantograph-no-stdlib-'));
    const noStdlib = sweep('--modulepath', empty);
    expect(noStdlib.status).toBe(2);
    expect(noStdlib.stderr).toContain(`function-sweep: --modulepath ${empty}: no stdlib module in it`);
    const badPattern = sweep('--filter', '(');
    expect(badPattern.status).toBe(2);
    expect(badPattern.stderr).toMatch(/^function-sweep: --filter \(: Invalid regular expression/);
    expect([...noStdlib.written, ...badPattern.written]).toEqual([]);
  });
});
