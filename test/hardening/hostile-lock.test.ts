/**
 * Issue 11, item 2: every path read from the lock is checked as an output path is, `directories` as well
 * as `files`. A hand-edited or hostile (committed) lock naming `../outside` or a directory reached through
 * a symlink must not make `remove` or `apply` rmdir anything outside the project; it is an error with the
 * lock's line and column, and nothing is changed.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_LOCK_BYTES } from '../../src/sync/lock.js';
import { repoTree, syncYml } from '../apply-cli/fixtures.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

/** An applied project (its lock names directory `extra`), and an empty directory beside it. */
async function appliedProject(): Promise<{ project: string; outside: string }> {
  const repo = tempTree(repoTree());
  const parent = tempDir();
  const project = join(parent, 'project');
  writeTree(project, { '.sync.yml': syncYml(repo, '', '[extra]') });
  expect((await run(project, 'apply')).code).toBe(0);
  const outside = join(parent, 'outside-empty');
  mkdirSync(outside);
  return { project, outside };
}

function editLockDirectories(project: string, directories: string[]): string {
  const path = join(project, '.pantograph.lock');
  const lock = JSON.parse(readFileSync(path, 'utf8')) as { directories: string[] };
  lock.directories = directories;
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  return readFileSync(path, 'utf8');
}

/** 1-based line:col of the first occurrence of `needle` in `text`. */
function lineCol(text: string, needle: string): string {
  const at = text.indexOf(needle);
  const before = text.slice(0, at).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

describe('a lock whose directories leave the project', () => {
  it.each([['remove'], ['apply'], ['status']])('`%s` refuses `../dir` with its position', async (command) => {
    const { project, outside } = await appliedProject();
    const outsidePath = `../${basename(outside)}`;
    const text = editLockDirectories(project, ['extra', outsidePath]);
    const before = snapshotDir(project);
    const r = await run(project, command);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SYNC_LOCK_INVALID');
    expect(r.stderr).toContain(`.pantograph.lock:${lineCol(text, JSON.stringify(outsidePath))}`);
    expect(r.stderr).toContain('leaves the project');
    expect(existsSync(outside)).toBe(true);
    expect(snapshotDir(project)).toEqual(before);
  });

  it('refuses absolute and reserved directories too', async () => {
    const { project, outside } = await appliedProject();
    editLockDirectories(project, [outside]);
    expect((await run(project, 'remove')).stderr).toContain('is absolute');
    editLockDirectories(project, ['.git']);
    expect((await run(project, 'remove')).stderr).toContain('is reserved');
    expect(existsSync(outside)).toBe(true);
  });
});

describe('a lock whose directory is reached through a symlink', () => {
  it.each([['remove'], ['apply']])('`%s` refuses it and removes nothing outside', async (command) => {
    const { project, outside } = await appliedProject();
    mkdirSync(join(outside, 'victim'));
    symlinkSync(outside, join(project, 'link'));
    editLockDirectories(project, ['extra', 'link/victim']);
    // A change to apply, so that apply would remove something and prune directories.
    writeFileSync(
      join(project, '.sync.yml'),
      readFileSync(join(project, '.sync.yml'), 'utf8').replace('[extra]', '[]'),
    );
    const r = await run(project, command);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SYNC_SYMLINK');
    expect(r.stderr).toContain('link');
    expect(existsSync(join(outside, 'victim'))).toBe(true);
    expect(existsSync(join(project, 'extra/extra.txt'))).toBe(true);
  });
});

describe('a lock that is not valid JSON', () => {
  it('says where, with line and column like every other file', async () => {
    const { project } = await appliedProject();
    const path = join(project, '.pantograph.lock');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = `${lines[2]}}`; // a stray brace at the end of line 3
    writeFileSync(path, lines.join('\n'));
    const r = await run(project, 'status');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`\\.pantograph\\.lock:3:${lines[2]!.length}: error`));
    expect(r.stderr).toContain('SYNC_LOCK_INVALID');
    // Under --format json, the same problem on standard output, for a CI that parses it; nothing written.
    const before = snapshotDir(project);
    for (const command of ['status', 'apply']) {
      const json = await run(project, '--format', 'json', command);
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toEqual({
        problems: [
          expect.objectContaining({
            severity: 'error',
            code: 'SYNC_LOCK_INVALID',
            file: path,
            line: 3,
            column: lines[2]!.length,
          }),
        ],
      });
    }
    expect(snapshotDir(project)).toEqual(before);
  });
});

describe('a lock a git merge left conflict markers in, or a newer Pantograph wrote', () => {
  it('says so at the first marker, with how to settle it, and writes nothing', async () => {
    const { project } = await appliedProject();
    const path = join(project, '.pantograph.lock');
    const lines = readFileSync(path, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"config.txt"'));
    lines.splice(
      at,
      1,
      '<<<<<<< HEAD',
      lines[at]!,
      '=======',
      lines[at]!.replace('"disk":"', '"disk":"0'),
      '>>>>>>> other',
    );
    writeFileSync(path, lines.join('\n'));
    const before = snapshotDir(project);
    for (const command of ['status', 'apply']) {
      const r = await run(project, command);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `.pantograph.lock:${at + 1}:1: error: .pantograph.lock is not a valid Pantograph lock file: a git merge left conflict markers in it [SYNC_LOCK_INVALID]\n  hint: Take one side whole (\`git checkout --theirs .pantograph.lock\`, or \`--ours\`), then run \`pantograph apply\``,
      );
    }
    expect(snapshotDir(project)).toEqual(before);
  });

  it('a newer lockVersion asks for a newer Pantograph, not for the lock to be deleted', async () => {
    const { project } = await appliedProject();
    const path = join(project, '.pantograph.lock');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"lockVersion": 1', '"lockVersion": 2'));
    const before = snapshotDir(project);
    const r = await run(project, 'apply');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /\.pantograph\.lock:2:3: error: \.pantograph\.lock is not a valid Pantograph lock file: lockVersion 2 was written by a newer Pantograph \(\d+\.\d+\.\d+\); this one reads lockVersion 1 \[SYNC_LOCK_INVALID\]\n {2}hint: Upgrade Pantograph/,
    );
    expect(r.stderr).not.toContain('delete it');
    expect(snapshotDir(project)).toEqual(before);
  });
});

describe('a lock whose sources or templates are damaged', () => {
  function editLock(
    project: string,
    edit: (lock: { sources: unknown[]; templates: unknown[] }) => void,
  ): string {
    const path = join(project, '.pantograph.lock');
    const lock = JSON.parse(readFileSync(path, 'utf8')) as { sources: unknown[]; templates: unknown[] };
    edit(lock);
    writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`.replace(`"${DEEP}"`, deepText(100_000)));
    return readFileSync(path, 'utf8');
  }
  /** Settings nested `depth` deep, as text: JSON.stringify itself cannot write them (its stack ends first). */
  const DEEP = '__deep_settings__';
  const deepText = (depth: number) => `{"x": ${'['.repeat(depth)}${']'.repeat(depth)}}`;

  it.each([
    [
      'a source that is no object',
      (l: { sources: unknown[] }) => (l.sources[0] = null),
      'sources',
      'sources[0] is not an object',
    ],
    [
      'a source location that is no string',
      (l: { sources: { location: unknown }[] }) => (l.sources[0]!.location = 5),
      'sources',
      'sources[0] has no location string',
    ],
    [
      'a commit that is no commit id (it would reach git as an option)',
      (l: { sources: { type: string; commit?: string }[] }) => {
        l.sources[0]!.type = 'git';
        l.sources[0]!.commit = '--upload-pack=touch /tmp/pwned';
      },
      'sources',
      'sources[0] has a commit that is not a commit id: "--upload-pack=touch /tmp/pwned"',
    ],
    [
      'a template naming no source',
      (l: { templates: { source: unknown }[] }) => (l.templates[0]!.source = 7),
      'templates',
      'templates[0] names no locked source (source 7)',
    ],
    [
      'settings nested 100,000 deep (they would crash the lock being written)',
      (l: { templates: { settings: unknown }[] }) => (l.templates[0]!.settings = DEEP),
      'templates',
      'templates[0] has settings nested more than 100 deep',
    ],
  ] as const)('%s: status and apply say so at the lock, write nothing', async (_name, edit, key, message) => {
    const { project } = await appliedProject();
    const text = editLock(project, edit as (lock: { sources: unknown[]; templates: unknown[] }) => void);
    const before = snapshotDir(project);
    for (const command of ['status', 'apply']) {
      const r = await run(project, command);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`.pantograph.lock:${lineCol(text, `"${key}":`)}`);
      expect(r.stderr).toContain(`not a valid Pantograph lock file: ${message} [SYNC_LOCK_INVALID]`);
      expect(r.stderr).not.toContain('internal error');
    }
    expect(snapshotDir(project)).toEqual(before);
  });
});

describe('a lock too large to read', () => {
  it.each([
    ['status'],
    ['apply'],
    ['remove'],
  ])('`%s` refuses it before reading it, saying its size and what to do, and changes nothing', async (command) => {
    const { project } = await appliedProject();
    const lock = join(project, '.pantograph.lock');
    // Sparse: 257 MiB on the file's stat, no disk taken. The lock is compared by its stat (reading it
    // whole twice would cost seconds), the other files by their bytes.
    truncateSync(lock, MAX_LOCK_BYTES + 1);
    const lockStat = () => ({ size: statSync(lock).size, mtime: statSync(lock).mtimeMs });
    const lockBefore = lockStat();
    renameSync(lock, `${project}.lock-aside`);
    const before = snapshotDir(project);
    renameSync(`${project}.lock-aside`, lock);
    const r = await run(project, command);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SYNC_LOCK_INVALID');
    expect(r.stderr).toContain(`.pantograph.lock:1:1`);
    expect(r.stderr).toContain(`is ${MAX_LOCK_BYTES + 1} bytes, larger than the 256 MiB`);
    expect(r.stderr).toContain('restore it from git');
    expect(lockStat()).toEqual(lockBefore);
    renameSync(lock, `${project}.lock-aside`);
    expect(snapshotDir(project)).toEqual(before);
  });
});
