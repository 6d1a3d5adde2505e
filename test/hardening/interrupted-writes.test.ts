/**
 * Issue 11, item 8: Pantograph's own interrupted writes are not hand edits. A real `apply` of a template
 * change to many files is killed (SIGKILL) at many points of its writes, over and over; after each kill,
 * every file holds its old or its new content (never part of one). Then the template's output changes again
 * (as when `update` was killed and the lock still names the old commit) and the next `apply` must recognise
 * what the killed run wrote (its journal): nothing `edited` or `conflict`, no merge markers: nobody touched
 * a file. The kills land at known points (pause-in-writes.cjs pauses the run there, then the test kills
 * it), not after a delay: on a loaded machine delays once made every kill land before or after the writes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const pauseHook = resolve(import.meta.dirname, 'pause-in-writes.cjs');
const FILES = 400;
/**
 * Where each run is killed, in the writer's temporary files: the journal is the 1st, the files the 2nd to
 * the 401st, the lock the 402nd. `rename:n` stops just before the n-th is renamed into place, `write:n`
 * with the n-th half written.
 */
const KILL_POINTS = [
  'rename:1', // the journal not yet in place: nothing written
  'write:1', // the journal's temporary file torn
  'rename:2', // the journal in place, no file written yet
  'write:2', // the first file's temporary file torn
  'rename:3',
  'rename:50',
  'write:120',
  'rename:137',
  'rename:201',
  'write:260',
  'rename:333',
  'rename:400',
  'rename:401', // every file but the last
  'write:402', // every file written, the lock's temporary file torn
  'rename:402', // every file written, the lock not yet in place
];

function cli(cwd: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
}

function syncYml(repo: string, value: string): string {
  return `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\nmany:\n  value: ${value}\n`;
}

/**
 * Runs `apply` paused at `point` (see pause-in-writes.cjs) and kills it there with SIGKILL; resolves with
 * the path it paused at, once the process is gone. Rejects when it never got there.
 */
function applyKilledAt(cwd: string, point: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--require', pauseHook, bin, 'apply'], {
      cwd,
      env: { ...process.env, NO_COLOR: '1', PANTOGRAPH_TEST_PAUSE: point },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let pausedAt: string | undefined;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      pausedAt ??= /^paused at \S+ (.+)$/m.exec(stderr)?.[1];
      if (pausedAt !== undefined) child.kill('SIGKILL');
    });
    child.on('close', (code, signal) => {
      if (pausedAt !== undefined && signal === 'SIGKILL') done(pausedAt);
      else fail(new Error(`apply never paused at ${point} (exit ${code ?? signal}): ${stderr}`));
    });
  });
}

/** The writer's temporary files left anywhere in the project. */
function temporaryFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) =>
    p.endsWith('.pantograph-tmp'),
  );
}

describe('apply killed at known points of its writes', () => {
  it(`leaves old-or-new files, and the next apply finishes without inventing hand edits (${KILL_POINTS.length} kills)`, async () => {
    const tree: Record<string, string> = {
      'many/template.json': JSON.stringify({
        name: 'many',
        always_apply: true,
        default_settings: { value: 'v0' },
      }),
    };
    for (let i = 0; i < FILES; i++) {
      tree[`many/files/d${i % 20}/f${i}.txt.epp`] =
        `<%- | String $value | -%>\nfile ${i}: <%= $value %>\n${'padding\n'.repeat(40)}`;
    }
    const repo = tempTree(tree);
    const root = writeTree(tempDir(), { '.sync.yml': syncYml(repo, 'v0') });
    expect(cli(root, 'apply').status).toBe(0);

    for (const [k, point] of KILL_POINTS.entries()) {
      const value = `v${k + 1}`;
      const before = readFileSync(join(root, 'd0/f0.txt'), 'utf8').split('\n')[0]!.split(': ')[1]!;
      expect(before).toBe(k === 0 ? 'v0' : `v${k}-next`);
      writeFileSync(join(root, '.sync.yml'), syncYml(repo, value));
      const pausedAt = await applyKilledAt(root, point);
      const n = Number(point.split(':')[1]);
      // The point is where the test means it to be: the journal, a file or the lock (the first two and the
      // last in the project's root, the files in d0/ to d19/), or its temporary file.
      const where = point.startsWith('write:')
        ? '.pantograph-tmp'
        : n === 1
          ? '.pantograph.lock.pending'
          : n === FILES + 2
            ? '.pantograph.lock'
            : '.txt';
      expect(pausedAt.endsWith(where), `${point} paused at ${pausedAt}`).toBe(true);
      expect(dirname(pausedAt) === realpathSync(root), `${point} paused at ${pausedAt}`).toBe(
        n === 1 || n === FILES + 2,
      );

      let changed = 0;
      for (let i = 0; i < FILES; i++) {
        const text = readFileSync(join(root, `d${i % 20}/f${i}.txt`), 'utf8');
        const line = text.split('\n')[0]!;
        expect([`file ${i}: ${before}`, `file ${i}: ${value}`], point).toContain(line);
        expect(text.endsWith('padding\n'), point).toBe(true);
        if (line.endsWith(`: ${value}`)) changed++;
      }
      // Exactly the files renamed into place before the kill hold the new content.
      expect(changed, point).toBe(Math.min(Math.max(n - 2, 0), FILES));

      writeFileSync(join(root, '.sync.yml'), syncYml(repo, `${value}-next`));
      const again = cli(root, 'apply');
      expect(again.stderr, point).toBe('');
      expect(again.status, point).toBe(0);
      const report = JSON.parse(cli(root, 'status', '--format', 'json').stdout) as {
        drift: boolean;
        entries: { state: string }[];
      };
      expect(report.drift, point).toBe(false);
      expect(
        report.entries.filter((e) => e.state === 'edited' || e.state === 'conflict'),
        point,
      ).toEqual([]);
      expect(existsSync(join(root, '.pantograph.lock.pending')), point).toBe(false);
      expect(temporaryFiles(root), point).toEqual([]);
      expect(readFileSync(join(root, `d${k % 20}/f${k}.txt`), 'utf8')).toContain(`: ${value}-next\n`);
    }
  }, 480_000);
});

describe('apply killed while post commands run', () => {
  const postSync = (repo: string, marker: string) =>
    `pdk_template:\n  version: 2\n  template_sources: [{ type: filesystem, location: ${repo} }]\n  post:\n` +
    // f3's command kills the apply that runs it (once: it removes the marker), before changing f3.
    `    - { "*.txt": "sh -c 'if [ \\"$0\\" = f3.txt ] && rm ${marker} 2>/dev/null; then kill -9 $PPID; sleep 1; exit 0; fi; echo POSTED >> \\"$0\\"' {}" }\n`;

  function killedProject(): { root: string; marker: string } {
    const tree: Record<string, string> = {
      't/template.json': JSON.stringify({ name: 't', always_apply: true, default_settings: {} }),
    };
    for (let i = 1; i <= 6; i++) tree[`t/files/f${i}.txt`] = `file ${i}\n`;
    const repo = tempTree(tree);
    const marker = join(tempDir(), 'kill-once');
    writeFileSync(marker, '');
    const root = writeTree(tempDir(), { '.sync.yml': postSync(repo, marker) });
    const killed = cli(root, 'apply');
    expect(killed.signal).toBe('SIGKILL');
    return { root, marker };
  }

  it('knows the files whose post commands finished, and runs the others next time', () => {
    const { root } = killedProject();
    // f1 and f2 were post-processed, f3 to f6 written but not (post commands run after all writes).
    expect(readFileSync(join(root, 'f2.txt'), 'utf8')).toBe('file 2\nPOSTED\n');
    expect(readFileSync(join(root, 'f3.txt'), 'utf8')).toBe('file 3\n');
    const status = JSON.parse(cli(root, 'status', '--format', 'json').stdout) as {
      entries: { path: string; state: string; reason: string }[];
    };
    const states = Object.fromEntries(status.entries.map((e) => [e.path, e.state]));
    expect(states).toEqual({
      'f1.txt': 'stable',
      'f2.txt': 'stable',
      'f3.txt': 'changed',
      'f4.txt': 'changed',
      'f5.txt': 'changed',
      'f6.txt': 'changed',
    });
    expect(status.entries.find((e) => e.path === 'f3.txt')!.reason).toBe(
      'post commands failed or did not finish last time',
    );
    const again = cli(root, 'apply');
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    for (let i = 1; i <= 6; i++)
      expect(readFileSync(join(root, `f${i}.txt`), 'utf8')).toBe(`file ${i}\nPOSTED\n`);
    expect(existsSync(join(root, '.pantograph.lock.pending'))).toBe(false);
    expect(existsSync(join(root, '.pantograph.lock.posted'))).toBe(false);
    expect(cli(root, 'status', '--check').status).toBe(0);
  });

  it('refuses a damaged record of post commands with its line, and writes nothing', () => {
    const { root } = killedProject();
    const posted = join(root, '.pantograph.lock.posted');
    const lines = readFileSync(posted, 'utf8').split('\n');
    expect(lines).toHaveLength(3); // f1, f2, and the empty piece after the last line break
    // A line cut short by the kill (no line break after it) says nothing, and is ignored.
    writeFileSync(posted, `${lines[0]}\n${lines[1]}\n["f3.t`);
    expect(cli(root, 'status', '--check').stdout).toContain('4 changed, 2 stable');
    writeFileSync(posted, `${lines[0]}\n["f9.txt", "x", "y"]\n`);
    const before = readFileSync(join(root, 'f3.txt'), 'utf8');
    const refused = cli(root, 'apply');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('.pantograph.lock.posted:2:1');
    expect(refused.stderr).toContain('.pantograph.lock.posted is not a valid record of post commands');
    expect(refused.stderr).toContain('delete .pantograph.lock.posted');
    expect(readFileSync(join(root, 'f3.txt'), 'utf8')).toBe(before);
  });
});
