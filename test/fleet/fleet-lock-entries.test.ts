/**
 * `fleet status` says what `fleet apply` would commit to `.pantograph.lock` when no file changes, file
 * entries included (not only the lock's header): an entry recorded anew (a file already put in line by
 * hand), an entry added (a file the templates now produce, already identical in the repository), an entry
 * dropped (a file no template produces and the repository already deleted). Each is `drift` (exit 1) with
 * `lock: to-update`, and apply commits that lock alone; a repository whose lock would not change is
 * `in-line` (exit 0). Real bare remotes, a filesystem template source, the built CLI.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

interface Lock {
  files: { [path: string]: { template: string; source: string; rendered: string; disk: string } };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A fleet of one remote (`a`) on a filesystem template `hello` (HELLO.txt and BYE.txt), applied and its
 * pull request merged: in line, lock and all.
 */
function appliedFleet(): { root: string; tpl: string; bare: string } {
  const root = tempDir('fleet-lock-entries-');
  const tpl = join(root, 'tpl', 'hello');
  mkdirSync(join(tpl, 'files'), { recursive: true });
  writeFileSync(
    join(tpl, 'template.json'),
    JSON.stringify({ name: 'hello', version: '1.0.0', always_apply: true }),
  );
  writeFileSync(join(tpl, 'files', 'HELLO.txt.epp'), 'one\n');
  writeFileSync(join(tpl, 'files', 'BYE.txt.epp'), 'bye\n');
  const bare = moduleRemote(root, 'a');
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'template_sources:',
      `  - { type: filesystem, location: "${join(root, 'tpl')}" }`,
      '  - default',
      'repositories: [{ name: a, url: remotes/a.git }]',
      '',
    ].join('\n'),
  );
  const applied = pantograph(root, ['fleet', 'apply', '--push']);
  if (applied.status !== 0) throw new Error(`fleet apply failed: ${applied.stdout}${applied.stderr}`);
  merge(bare);
  return { root, tpl, bare };
}

/** The work branch merged into the base, as when its pull request is merged. */
function merge(bare: string): void {
  git(bare, 'update-ref', 'refs/heads/main', 'refs/heads/pantograph/update');
}

/** A commit on the remote's base branch made by hand (not by Pantograph). */
function commitToBase(root: string, bare: string, change: (work: string) => void): void {
  const work = join(tempDir('fleet-lock-entries-hand-'), 'a');
  git(root, 'clone', '--quiet', bare, work);
  change(work);
  git(work, 'add', '--all');
  git(work, 'commit', '--quiet', '-m', 'by hand');
  git(work, 'push', '--quiet', 'origin', 'main');
}

function lockAt(bare: string, branch: string): Lock {
  return JSON.parse(git(bare, 'show', `${branch}:.pantograph.lock`)) as Lock;
}

function json(root: string, ...args: string[]) {
  const r = pantograph(root, ['--format', 'json', 'fleet', ...args]);
  return { status: r.status, record: JSON.parse(r.stdout).repositories[0], stderr: r.stderr };
}

/**
 * Status and `apply --noop` say `drift` with the lock to bring up to date and no file; apply commits the
 * lock alone; once merged, status is in line. Returns the lock before and after.
 */
function expectLockAloneDrifts(root: string, bare: string): { before: Lock; after: Lock } {
  const before = lockAt(bare, 'main');
  const status = pantograph(root, ['fleet', 'status']);
  expect(status.status, status.stderr).toBe(1);
  expect(status.stdout).toMatch(/^a +drift +0 \+ \.pantograph\.lock to bring up to date *$/m);
  expect(json(root, 'status')).toMatchObject({
    status: 1,
    record: { result: 'drift', files: [], lock: 'to-update' },
  });
  expect(json(root, 'apply', '--noop')).toMatchObject({
    status: 0,
    record: { result: 'drift', files: [], lock: 'to-update' },
  });

  const applied = json(root, 'apply', '--push');
  expect(applied).toMatchObject({
    status: 0,
    record: { result: 'applied', files: [], lock: 'updated', committed: true, pushed: true },
  });
  expect(git(bare, 'diff', '--name-only', 'main', 'pantograph/update')).toBe('.pantograph.lock');
  const after = lockAt(bare, 'pantograph/update');
  merge(bare);
  const settled = json(root, 'status');
  expect(settled.status, settled.stderr).toBe(0);
  expect(settled.record.result).toBe('in-line');
  expect(settled.record.lock).toBeUndefined();
  return { before, after };
}

describe('fleet status predicts the lock entries apply would rewrite', () => {
  it('in line, lock and all: in-line, exit 0, and apply commits nothing', () => {
    const { root, bare } = appliedFleet();
    const status = json(root, 'status');
    expect(status.status, status.stderr).toBe(0);
    expect(status.record).toMatchObject({ result: 'in-line', files: [] });
    expect(status.record.lock).toBeUndefined();
    const head = git(bare, 'rev-parse', 'pantograph/update');
    expect(json(root, 'apply', '--push').record).toMatchObject({ result: 'in-line', committed: false });
    expect(git(bare, 'rev-parse', 'pantograph/update')).toBe(head);
  });

  it('an entry changed: the template output changed, and the repository already holds it', () => {
    const { root, tpl, bare } = appliedFleet();
    writeFileSync(join(tpl, 'files', 'HELLO.txt.epp'), 'two\n');
    commitToBase(root, bare, (work) => writeFileSync(join(work, 'HELLO.txt'), 'two\n'));
    const { before, after } = expectLockAloneDrifts(root, bare);
    expect(before.files['HELLO.txt']).toMatchObject({ rendered: sha256('one\n'), disk: sha256('one\n') });
    expect(after.files['HELLO.txt']).toMatchObject({ rendered: sha256('two\n'), disk: sha256('two\n') });
  });

  it('an entry added: the template now produces a file the repository has, identical', () => {
    const { root, tpl, bare } = appliedFleet();
    writeFileSync(join(tpl, 'files', 'NOTES.md.epp'), 'notes\n');
    commitToBase(root, bare, (work) => writeFileSync(join(work, 'NOTES.md'), 'notes\n'));
    const { before, after } = expectLockAloneDrifts(root, bare);
    expect(before.files['NOTES.md']).toBeUndefined();
    expect(after.files['NOTES.md']).toMatchObject({ template: 'hello', source: 'files/NOTES.md.epp' });
  });

  it('an entry removed: no template produces a file the repository already deleted', () => {
    const { root, tpl, bare } = appliedFleet();
    rmSync(join(tpl, 'files', 'BYE.txt.epp'));
    commitToBase(root, bare, (work) => rmSync(join(work, 'BYE.txt')));
    const { before, after } = expectLockAloneDrifts(root, bare);
    expect(before.files['BYE.txt']).toMatchObject({ template: 'hello' });
    expect(after.files['BYE.txt']).toBeUndefined();
  });
});
