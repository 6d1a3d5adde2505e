/**
 * A repository's own files are someone else's input. Its `.sync.yml`, which the fleet rewrites (its
 * overrides) and commits: one that is not UTF-8 fails its repository at the first bad byte (it was read
 * leniently, and the fleet committed U+FFFD in place of each bad byte), one larger than the fleet reads
 * fails too; so does a metadata.json larger than the fleet reads. Nothing is written, committed or pushed,
 * and the others go on. The built CLI on real bare remotes.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { branches, git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

interface Record {
  name: string;
  result: string;
  files: { path: string }[];
  committed?: boolean;
  error?: { code: string; message: string; file?: string; line?: number; column?: number; hint?: string };
}

/** Remotes `bad` (its .sync.yml as `spoil` leaves it) and `good`; the fleet sets a setting in both. */
function fleetWith(spoil: (syncFile: string) => void): { root: string; bad: string; good: string } {
  const root = tempDir('fleet-sync-text-');
  const bad = moduleRemote(root, 'bad', (work) => spoil(join(work, '.sync.yml')));
  const good = moduleRemote(root, 'good');
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'defaults:',
      '  settings:',
      '    puppet_lint: { fail_on_warnings: true }',
      'repositories: [{ name: bad, url: remotes/bad.git }, { name: good, url: remotes/good.git }]',
      '',
    ].join('\n'),
  );
  return { root, bad, good };
}

function run(root: string, ...args: string[]): { status: number | null; byName: Map<string, Record> } {
  const r = pantograph(root, ['--format', 'json', 'fleet', ...args]);
  const report = JSON.parse(r.stdout) as { repositories: Record[] };
  return { status: r.status, byName: new Map(report.repositories.map((x) => [x.name, x])) };
}

describe("a repository's own files the fleet cannot take as they are", () => {
  it('not UTF-8: failed at the first bad byte, the file as it was, nothing committed or pushed', () => {
    let line = 0;
    const { root, bad, good } = fleetWith((file) => {
      line = readFileSync(file, 'utf8').split('\n').length; // the line the bad byte goes on
      appendFileSync(file, Buffer.from('# caf\xe9, saved as Latin-1\n', 'latin1'));
    });
    const before = branches(bad);
    const clone = join(root, '.pantograph-fleet', 'bad');
    const error = {
      code: 'SYNC_ENCODING',
      message: `.sync.yml is not valid UTF-8: byte 0xe9 at line ${line}, column 6: nothing was written`,
      file: join(clone, '.sync.yml'),
      line,
      column: 6,
      hint: 'save .sync.yml as UTF-8 in the repository (most editors offer the encoding when saving), then run the fleet again',
    };
    for (const args of [['status'], ['apply', '--push']]) {
      const r = run(root, ...args);
      expect(r.status).toBe(1);
      expect(r.byName.get('bad')).toMatchObject({ result: 'failed', files: [], error });
    }
    // The clone's file byte for byte as the repository has it; no commit, no push; the other went on.
    expect(readFileSync(join(clone, '.sync.yml'))).toEqual(
      readFileSync(join(root, 'work', 'bad', '.sync.yml')),
    );
    expect(git(clone, 'status', '--porcelain')).toBe('');
    expect(branches(bad)).toEqual(before);
    expect(branches(good)['pantograph/update']).toBeDefined();

    // The text output says where and what to do.
    const text = pantograph(root, ['fleet', 'status', '--filter', 'bad']);
    expect(text.status).toBe(1);
    expect(text.stderr).toContain(`bad: failed: ${error.message} (${error.file}:${line}:6)`);
    expect(text.stderr).toContain(`hint: ${error.hint}`);
  });

  it('larger than the fleet reads: failed, saying its size, nothing written', () => {
    const { root, bad } = fleetWith((file) => appendFileSync(file, `# ${'x'.repeat(1024 * 1024)}\n`));
    const before = branches(bad);
    const clone = join(root, '.pantograph-fleet', 'bad');
    const r = run(root, 'apply', '--push');
    expect(r.status).toBe(1);
    const record = r.byName.get('bad');
    expect(record).toMatchObject({
      result: 'failed',
      files: [],
      error: { code: 'SYNC_READ', file: join(clone, '.sync.yml'), line: 1, column: 1 },
    });
    expect(record?.error?.message).toMatch(
      new RegExp(
        `^${join(clone, '.sync.yml')} is \\d+ bytes, larger than the 1 MiB a fleet reads of a repository's \\.sync\\.yml: nothing was written$`,
      ),
    );
    expect(record?.error?.hint).toContain('check what the repository committed as its .sync.yml');
    expect(git(clone, 'status', '--porcelain')).toBe('');
    expect(branches(bad)).toEqual(before);
    expect(r.byName.get('good')).toMatchObject({ result: 'applied', committed: true });
  });

  it('a metadata.json larger than the fleet reads: failed at it, nothing read or written', () => {
    const { root, bad } = fleetWith(() => undefined);
    // metadata.json padded past 1 MiB (still valid JSON: the size alone is refused).
    const work = join(root, 'work', 'bad');
    const metadata = JSON.parse(readFileSync(join(work, 'metadata.json'), 'utf8'));
    writeFileSync(
      join(work, 'metadata.json'),
      JSON.stringify({ ...metadata, padding: 'x'.repeat(1024 * 1024) }),
    );
    git(work, 'commit', '--quiet', '-am', 'padded');
    git(work, 'push', '--quiet', bad, 'main');
    const before = branches(bad);
    const file = join(root, '.pantograph-fleet', 'bad', 'metadata.json');
    const r = run(root, 'apply', '--push');
    expect(r.status).toBe(1);
    const record = r.byName.get('bad');
    expect(record).toMatchObject({
      result: 'failed',
      files: [],
      error: { code: 'FLEET_PATH', file, line: 1, column: 1 },
    });
    expect(record?.error?.message).toMatch(
      /^metadata\.json is \d+ bytes, larger than the 1 MiB a fleet reads of a repository's metadata\.json: nothing was read or written$/,
    );
    expect(record?.error?.hint).toBe(
      'check what the repository committed as its metadata.json, then run the fleet again',
    );
    expect(git(join(root, '.pantograph-fleet', 'bad'), 'status', '--porcelain')).toBe('');
    expect(branches(bad)).toEqual(before);
    expect(r.byName.get('good')).toMatchObject({ result: 'applied', committed: true });
  });
});
