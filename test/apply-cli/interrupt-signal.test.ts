/**
 * Ctrl-C (SIGINT) or SIGTERM during `apply`: the run stops between two files, records in the lock what
 * it did, says on standard error how far it got and what to do, and exits 128 + the signal's number; the
 * next `apply` finishes the job. The built CLI gets a real signal while a post command runs (the moment
 * is known: the command leaves a mark); the library is stopped between two writes.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { planProjectAt } from '../../src/engine/project-plan.js';
import { apply, readLock } from '../../src/sync/index.js';
import { templates } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';
import { read } from './fixtures.js';

afterEach(() => removeTempDirs());

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

/** A template of three files, and a project whose post command marks each file in `marks`, then sleeps. */
function project(marks: string, seconds: number): string {
  const repo = tempTree(
    templates('', {
      base: {
        'template.json': { version: '1.0.0', always_apply: true, default_settings: {} },
        'files/a.txt': 'a\n',
        'files/b.txt': 'b\n',
        'files/c.txt': 'c\n',
      },
    }),
  );
  return tempTree({
    '.sync.yml': `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ${repo}
  templates: []
  post:
    - { "*.txt": "sh -c 'touch ${marks}/$(basename \\"$1\\"); sleep ${seconds}' sh {}" }
`,
  });
}

/** Runs the built `pantograph apply` in `cwd`, sending `signal` once `mark` exists. */
function applyInterrupted(cwd: string, mark: string, signal: NodeJS.Signals) {
  const child = spawn(process.execPath, [bin, 'apply'], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const poll = setInterval(() => {
    if (existsSync(mark)) {
      clearInterval(poll);
      child.kill(signal);
    }
  }, 10);
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) =>
    child.on('close', (code) => {
      clearInterval(poll);
      done({ code, stdout, stderr });
    }),
  );
}

describe('an apply interrupted by a signal', () => {
  it('Ctrl-C: says how far it got and what to do, exits 130, and the next apply finishes', async () => {
    const marks = tempDir();
    const root = project(marks, 0.3);
    const run = await applyInterrupted(root, join(marks, 'a.txt'), 'SIGINT');

    expect(run.code).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'interrupted (SIGINT): stopping after the file being written (press Ctrl-C again to stop at once)\n' +
        'error: interrupted (SIGINT): 3 files written, the post commands of 2 not run; the lock records that (the next apply writes them again and runs them) [SYNC_INTERRUPTED]\n' +
        '  hint: run `pantograph apply` again to finish: every file is either as it was or as the template makes it\n',
    );
    // The post command that was running finished; the others never started. No journal or run lock left.
    expect(readdirSync(marks)).toEqual(['a.txt']);
    expect(readdirSync(root).sort()).toEqual(['.pantograph.lock', '.sync.yml', 'a.txt', 'b.txt', 'c.txt']);

    const next = spawn(process.execPath, [bin, 'apply'], { cwd: root });
    let out = '';
    next.stdout.on('data', (d) => (out += d));
    expect(await new Promise((done) => next.on('close', done))).toBe(0);
    expect(out).toContain('Changed 2 files');
    expect(readdirSync(marks).sort()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('SIGTERM (a cancelled CI job) exits 143 with the same account', async () => {
    const marks = tempDir();
    const root = project(marks, 0.2);
    const run = await applyInterrupted(root, join(marks, 'a.txt'), 'SIGTERM');
    expect(run.code).toBe(143);
    expect(run.stderr).toContain(
      'interrupted (SIGTERM): stopping after the file being written (send it again',
    );
    expect(run.stderr).toContain(
      'error: interrupted (SIGTERM): 3 files written, the post commands of 2 not run',
    );
  });

  it('stops between two writes: the files reached are written and locked, the others untouched', async () => {
    const root = project(tempDir(), 0);
    const { plan } = await planProjectAt(root, {});
    const stop = new AbortController();
    const error = await apply(
      { ...plan, post: [] },
      {
        signal: stop.signal,
        onBeforeWrite: (path) => {
          if (path === 'a.txt') stop.abort('SIGINT');
        },
      },
    ).catch((e: unknown) => e);

    expect(error).toMatchObject({
      code: 'SYNC_INTERRUPTED',
      message: 'interrupted (SIGINT): 1 of 3 files written; the lock records them',
    });
    expect(read(root, 'a.txt')).toBe('a\n');
    expect(existsSync(join(root, 'b.txt'))).toBe(false);
    expect([...(readLock(root)?.files.keys() ?? [])]).toEqual(['a.txt']);
    expect(readdirSync(root).sort()).toEqual(['.pantograph.lock', '.sync.yml', 'a.txt']);
  });

  it('aborted before the first write: nothing is written', async () => {
    const root = project(tempDir(), 0);
    const { plan } = await planProjectAt(root, {});
    const error = await apply(plan, { signal: AbortSignal.abort('SIGTERM') }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SYNC_INTERRUPTED',
      message: 'interrupted (SIGTERM): nothing was written',
    });
    expect(readdirSync(root)).toEqual(['.sync.yml']);
  });
});
