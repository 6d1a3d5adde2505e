/**
 * The run lock (`.pantograph.lock.lck`) must survive its owner being killed at any instant: a kill leaves
 * no lock or a complete one (pid and host), which the next run judges stale and takes over. An empty lock,
 * which nobody can judge, made the next run refuse to start (found by the interrupted-writes test in CI).
 */
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireRunLock } from '../../src/sync/mutex.js';
import { buildSync, runNode } from './child.js';
import { tmpProject } from './helpers.js';

const KILLS = 30;
const MAX_KILLS = 150;
const MIN_RECOVERIES = 3;

describe('the run lock', () => {
  let build: ReturnType<typeof buildSync>;
  let script: string;
  beforeAll(() => {
    build = buildSync();
    script = join(build.dir, 'lock-loop.mjs');
    // Takes and releases the lock as fast as it can, so a kill lands anywhere in the taking.
    writeFileSync(
      script,
      `import { acquireRunLock } from './sync/mutex.js';
process.stdout.write('go\\n');
for (;;) acquireRunLock(process.argv[2]).release();
`,
    );
  });
  afterAll(() => build.cleanup());

  it(`is never left unusable by a run killed while taking or releasing it (at least ${KILLS} kills)`, async () => {
    const root = tmpProject();
    let recoveries = 0;
    // More kills while too few landed with the lock held (a loaded machine shifts the timings).
    for (let k = 0; k < KILLS || (recoveries < MIN_RECOVERIES && k < MAX_KILLS); k++) {
      const delay = 20 + Math.random() * 30;
      let armed = false;
      const run = await runNode(script, [root], {
        onStdout: (text, kill) => {
          if (!armed && text.startsWith('go')) {
            armed = true;
            setTimeout(kill, delay);
          }
        },
      });
      expect(run.signal).toBe('SIGKILL');
      const lock = acquireRunLock(root); // throws SYNC_LOCKED on a lock it cannot judge
      if (lock.recovered) recoveries++;
      lock.release();
      // Nothing of the killed run's left behind once a run has taken the lock.
      expect(readdirSync(root)).toEqual([]);
    }
    // Kills landed while the lock was held, and were recovered from.
    expect(recoveries).toBeGreaterThanOrEqual(MIN_RECOVERIES);
  }, 300_000);

  it('is taken over from a run killed while holding it, whose pid and host it names', async () => {
    const root = tmpProject();
    const holder = join(build.dir, 'lock-hold.mjs');
    writeFileSync(
      holder,
      `import { acquireRunLock } from './sync/mutex.js';
acquireRunLock(process.argv[2]);
process.stdout.write('held\\n');
setInterval(() => {}, 1000);
`,
    );
    let holderPid = 0;
    const run = await runNode(holder, [root], {
      onStdout: (text, kill) => {
        if (!text.startsWith('held')) return;
        holderPid = Number(readFileSync(join(root, '.pantograph.lock.lck'), 'utf8').split('\n')[0]);
        kill();
      },
    });
    expect(run.stderr).toBe('');
    expect(run.signal).toBe('SIGKILL');
    expect(holderPid).toBeGreaterThan(0);
    const lock = acquireRunLock(root);
    expect(lock.recovered).toBe(true);
    expect(readFileSync(join(root, '.pantograph.lock.lck'), 'utf8')).toBe(`${process.pid}\n${hostname()}\n`);
    lock.release();
    expect(readdirSync(root)).toEqual([]);
  });

  it('sweeps the staged lock of a run killed before it linked it, and keeps a live run’s', () => {
    const root = tmpProject();
    writeFileSync(join(root, '.pantograph.lock.lck.999999999.pantograph-tmp'), '999999999\nhost\n');
    writeFileSync(join(root, '.pantograph.lock.lck.1.pantograph-tmp'), '1\nhost\n'); // pid 1 is alive
    const lock = acquireRunLock(root);
    expect(readdirSync(root).sort()).toEqual([
      '.pantograph.lock.lck',
      '.pantograph.lock.lck.1.pantograph-tmp',
    ]);
    lock.release();
  });

  it('an empty lock (a file system without hard links, its owner starting): refused while new, taken over once old', () => {
    const root = tmpProject();
    const file = join(root, '.pantograph.lock.lck');
    writeFileSync(file, '');
    expect(() => acquireRunLock(root)).toThrow(
      expect.objectContaining({
        code: 'SYNC_LOCKED',
        path: '.pantograph.lock.lck',
        message:
          '.pantograph.lock.lck was created just now and is still empty: another Pantograph run is starting',
      }),
    );
    expect(readdirSync(root)).toEqual(['.pantograph.lock.lck']);
    expect(readFileSync(file, 'utf8')).toBe('');
    const old = new Date(Date.now() - 10_000);
    utimesSync(file, old, old);
    const lock = acquireRunLock(root);
    expect(lock.recovered).toBe(true);
    lock.release();
    expect(readdirSync(root)).toEqual([]);
  });

  it('says why it cannot be created, as it is: a project directory that is not there', () => {
    expect(() => acquireRunLock(join(tmpProject(), 'gone'))).toThrow(
      expect.objectContaining({
        code: 'SYNC_WRITE_FAILED',
        message: 'Cannot create .pantograph.lock.lck: ENOENT',
      }),
    );
  });

  it('refuses while a live run holds it, naming the pid, and leaves its lock in place', () => {
    const root = tmpProject();
    const held = acquireRunLock(root);
    expect(() => acquireRunLock(root)).toThrow(
      expect.objectContaining({
        code: 'SYNC_LOCKED',
        message: expect.stringContaining(`pid ${process.pid}`),
      }),
    );
    expect(readdirSync(root)).toEqual(['.pantograph.lock.lck']);
    held.release();
    expect(readdirSync(root)).toEqual([]);
  });
});
