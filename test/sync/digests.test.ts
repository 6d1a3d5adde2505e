/**
 * Issue 13: hashes known without reading. `status` trusts a recorded hash only while the file's stat
 * (size, mtime, ctime, inode) is what it was when hashed, and records only files that have settled. These
 * tests run the record with a clock a minute ahead (`startedMs`), which stands for a user who runs status
 * again later; each edit waits a little first, so that the kernel gives it a new ctime tick.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, FileDigests, status } from '../../src/sync/index.js';
import { Target } from '../../src/sync/paths.js';
import { file, planOf, put, tmpProject } from './helpers.js';

const later = () => ({ startedMs: Date.now() + 60_000 });
const tick = () => new Promise((done) => setTimeout(done, 30));

/** A project applied from three files, and its digest record file. */
async function applied(): Promise<{ root: string; record: string; files: ReturnType<typeof file>[] }> {
  const root = tmpProject();
  const files = [file('a.txt', 'aaaa\n'), file('dir/b.txt', 'bbbb\n'), file('c.txt', 'cccc\n')];
  await apply(planOf(root, files));
  return { root, record: join(tmpProject(), 'digests.json'), files };
}

/** The paths the record file holds (one entry per line after the header, the path first). */
const recordedPaths = (record: string) =>
  readFileSync(record, 'utf8')
    .split('\n')
    .slice(1, -1)
    .map((line) => line.split('\t')[0]!)
    .sort();

const states = (report: ReturnType<typeof status>) => report.entries.map((e) => [e.path, e.state]);

describe('the digest record', () => {
  it('knows the files status hashed, and gives the same states as reading them', async () => {
    const { root, record, files } = await applied();
    const first = status(planOf(root, files), { digests: FileDigests.open(record, later()) });
    expect(recordedPaths(record)).toEqual(['a.txt', 'c.txt', 'dir/b.txt'].map((p) => join(root, p)));

    const digests = FileDigests.open(record, later());
    const again = status(planOf(root, files), { digests });
    expect(states(again)).toEqual(states(first));
    expect(states(again)).toEqual([
      ['a.txt', 'stable'],
      ['c.txt', 'stable'],
      ['dir/b.txt', 'stable'],
    ]);
    expect(digests.lookup(join(root, 'a.txt'), statSync(join(root, 'a.txt')))?.hash).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });

  it('a hand edit of the same size, with the old mtime put back, is still seen: ctime changed', async () => {
    const { root, record, files } = await applied();
    const path = join(root, 'a.txt');
    const past = new Date('2024-01-02T03:04:05Z'); // whole seconds: utimes keeps them exactly
    utimesSync(path, past, past);
    status(planOf(root, files), { digests: FileDigests.open(record, later()) });
    await tick();
    writeFileSync(path, 'AAAA\n');
    utimesSync(path, past, past); // what `touch -r`, or an editor keeping mtimes, does
    expect(statSync(path).mtimeMs).toBe(past.getTime());

    const report = status(planOf(root, files), { digests: FileDigests.open(record, later()), diff: true });
    const a = report.entries.find((e) => e.path === 'a.txt')!;
    expect(a.state).toBe('edited');
    expect(a.diff).toContain('-AAAA'); // the file as it is now was read for the diff
  });

  it("a known file's bytes are read when needed (a diff), and must still have the recorded hash", async () => {
    const { root, record, files } = await applied();
    status(planOf(root, files), { digests: FileDigests.open(record, later()) });
    put(root, 'c.txt', 'mine\n');
    await tick();
    // A conflict's diff shows the file as it is: it was read, not taken from the record.
    const report = status(planOf(root, [files[0]!, files[1]!, file('c.txt', 'theirs\n')]), {
      digests: FileDigests.open(record, later()),
      diff: true,
    });
    const c = report.entries.find((e) => e.path === 'c.txt')!;
    expect(c.state).toBe('conflict');
    expect(c.diff).toContain('-mine');

    // Known, unread, then changed before its bytes were asked for: an error, never another file's diff.
    const known = new Target(root, FileDigests.open(record, later())).read('a.txt');
    expect(known.kind).toBe('file');
    await tick();
    writeFileSync(join(root, 'a.txt'), 'AAAA\n');
    expect(() => known.kind === 'file' && known.content).toThrow(
      expect.objectContaining({
        code: 'SYNC_CHANGED',
        message: 'a.txt changed while Pantograph was running',
      }),
    );
  });

  it('a file just written is not recorded (it could change again within the same clock tick)', async () => {
    const { root, record, files } = await applied();
    status(planOf(root, files), { digests: FileDigests.open(record) }); // now: every file is seconds old at most
    expect(() => readFileSync(record)).toThrow(); // nothing to record, nothing written
    const digests = FileDigests.open(record);
    expect(digests.lookup(join(root, 'a.txt'), statSync(join(root, 'a.txt')))).toBeUndefined();
  });

  it('`status PATH` keeps what the record knows of the other files; a full status drops files gone', async () => {
    const { root, record, files } = await applied();
    status(planOf(root, files), { digests: FileDigests.open(record, later()) });
    const known = () => recordedPaths(record);
    const all = ['a.txt', 'c.txt', 'dir/b.txt'].map((p) => join(root, p));
    status(planOf(root, files), { digests: FileDigests.open(record, later()), paths: ['a.txt'] });
    expect(known()).toEqual(all);
    status(planOf(root, [files[0]!, files[1]!]), { digests: FileDigests.open(record, later()) });
    expect(known()).toEqual(all); // c.txt is still locked, so still looked at
    const { rmSync } = await import('node:fs');
    rmSync(join(root, 'c.txt'));
    status(planOf(root, [files[0]!, files[1]!]), { digests: FileDigests.open(record, later()) });
    expect(known()).toEqual([all[0], all[2]]);
  });

  it('a damaged or foreign record is ignored and written anew', async () => {
    const { root, record, files } = await applied();
    status(planOf(root, files), { digests: FileDigests.open(record, later()) });
    const good = readFileSync(record, 'utf8');
    const aPath = join(root, 'a.txt');
    const forged = (hash: string) => good.replace(/^(.*a\.txt\t[^\t]*\t)[0-9a-f]{64}/m, `$1${hash}`);
    for (const text of [
      '{"version": 2, "files": {}}', // the JSON record of earlier versions
      good.replace(/^pantograph-digests \d+/, 'pantograph-digests 99'),
      good.slice(0, good.indexOf('\t', good.indexOf(aPath)) + 5), // cut short mid-line
      forged('not-a-hash'),
      good.replace(/\t0$/m, '\tx'), // flags not a number
    ]) {
      writeFileSync(record, text);
      const report = status(planOf(root, files), { digests: FileDigests.open(record, later()) });
      expect(report.drift).toBe(false);
      expect(recordedPaths(record)).toHaveLength(3);
    }
    // A well-formed entry with another hash is believed (the record is a cache of stats, not a proof),
    // which is why `apply` reads a file again before replacing it: here status says the file was edited.
    writeFileSync(record, forged('0'.repeat(64)));
    const fooled = status(planOf(root, files), { digests: FileDigests.open(record, later()) });
    expect(fooled.entries.find((e) => e.path === 'a.txt')?.state).toBe('edited');
  });

  it('a record entry for a symlink target is never used: the link is refused as always', async () => {
    const { root, record, files } = await applied();
    status(planOf(root, files), { digests: FileDigests.open(record, later()) });
    const { symlinkSync, rmSync } = await import('node:fs');
    rmSync(join(root, 'a.txt'));
    symlinkSync(join(root, 'c.txt'), join(root, 'a.txt'));
    expect(() => status(planOf(root, files), { digests: FileDigests.open(record, later()) })).toThrow(
      /a\.txt is a symbolic link/,
    );
  });
});
