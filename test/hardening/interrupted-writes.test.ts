/**
 * Issue 11, item 8: Pantograph's own interrupted writes are not hand edits. A real `apply` of a template
 * change to many files is killed (SIGKILL) at random points, over and over; after each kill, every file
 * holds its old or its new content (never part of one). Then the template's output changes again (as when
 * `update` was killed and the lock still names the old commit) and the next `apply` must recognise what the
 * killed run wrote (its journal): nothing `edited` or `conflict`, no merge markers: nobody touched a file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const FILES = 400;
const KILLS = 24;
/** More kills when too few of the first ones landed mid-write (a loaded machine shifts the timings). */
const MAX_KILLS = 72;
const MID_WRITE_KILLS = 4;

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

/** Runs `apply` and kills it with SIGKILL after `ms`; resolves when the process is gone. */
function applyKilledAfter(cwd: string, ms: number): Promise<void> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, 'apply'], { cwd, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', () => {
      clearTimeout(timer);
      done();
    });
  });
}

describe('apply killed at random points', () => {
  it(`leaves old-or-new files, and the next apply finishes without inventing hand edits (at least ${KILLS} kills)`, async () => {
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

    // How long a whole apply of the change takes here: kills are spread over that time.
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'calibrate'));
    const t0 = performance.now();
    expect(cli(root, 'apply').status).toBe(0);
    const full = performance.now() - t0;

    let midWrite = 0;
    for (let k = 1; k <= KILLS || (midWrite < MID_WRITE_KILLS && k <= MAX_KILLS); k++) {
      const value = `v${k}`;
      const before = readFileSync(join(root, 'd0/f0.txt'), 'utf8').split('\n')[0]!.split(': ')[1]!;
      expect(before).toBe(k === 1 ? 'calibrate' : `v${k - 1}-next`);
      writeFileSync(join(root, '.sync.yml'), syncYml(repo, value));
      await applyKilledAfter(root, full * (0.25 + 0.75 * Math.random()));
      const seen = new Set<string>();
      for (let i = 0; i < FILES; i++) {
        const text = readFileSync(join(root, `d${i % 20}/f${i}.txt`), 'utf8');
        const line = text.split('\n')[0]!;
        expect([`file ${i}: ${before}`, `file ${i}: ${value}`]).toContain(line);
        expect(text.endsWith('padding\n')).toBe(true);
        seen.add(line.split(': ')[1]!);
      }
      if (seen.size === 2) midWrite++;
      writeFileSync(join(root, '.sync.yml'), syncYml(repo, `${value}-next`));
      const again = cli(root, 'apply');
      expect(again.stderr).toBe('');
      expect(again.status).toBe(0);
      const report = JSON.parse(cli(root, 'status', '--format', 'json').stdout) as {
        drift: boolean;
        entries: { state: string }[];
      };
      expect(report.drift).toBe(false);
      expect(report.entries.filter((e) => e.state === 'edited' || e.state === 'conflict')).toEqual([]);
      expect(existsSync(join(root, '.pantograph.lock.pending'))).toBe(false);
      expect(readFileSync(join(root, `d${k % 20}/f${k}.txt`), 'utf8')).toContain(`: ${value}-next\n`);
    }
    // The test is about kills in the middle of the writes: enough of them must have landed there.
    expect(midWrite).toBeGreaterThanOrEqual(MID_WRITE_KILLS);
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
