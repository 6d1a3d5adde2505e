import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apply, readLock, status } from '../../src/sync/index.js';
import { file, get, modeOf, planOf, put, tmpProject } from './helpers.js';

const lockText = (root: string): string => readFileSync(join(root, '.pantograph.lock'), 'utf8');

describe('apply: creating and keeping files in line', () => {
  it('creates files with their modes and directories, records the lock, and reports', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a/b/c.txt', 'one\n'), file('run.sh', '#!/bin/sh\n', { mode: 0o755 })]);
    const result = await apply(plan);
    expect(result.ok).toBe(true);
    expect(result.written).toEqual(['a/b/c.txt', 'run.sh']);
    expect(result.directoriesCreated).toEqual(['a', 'a/b']);
    expect(result.message).toBe('Changed 2 files');
    expect(get(root, 'a/b/c.txt')).toBe('one\n');
    expect(modeOf(root, 'run.sh')).toBe(0o755);
    expect(modeOf(root, 'a/b/c.txt')).toBe(0o644);
    const lock = readLock(root)!;
    expect(lock.directories).toEqual(['a', 'a/b']);
    expect(lock.files.get('run.sh')).toMatchObject({ template: 'base', kind: 'file', mode: '0755' });
    expect(status(plan).drift).toBe(false);
    expect(existsSync(join(root, '.pantograph.lock.lck'))).toBe(false);
  });

  it('changes nothing the second time, the lock byte for byte', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('x', '1\n'), file('d/y', '2\n')]);
    await apply(plan);
    const before = lockText(root);
    const again = await apply(plan);
    expect(again.written).toEqual([]);
    expect(again.changedCount).toBe(0);
    expect(again.message).toBe('');
    expect(again.lockChanged).toBe(false);
    expect(lockText(root)).toBe(before);
    expect(again.unchanged).toEqual(['d/y', 'x']);
  });

  it('writes a lock with a stable layout: fixed keys, sorted files, settings in their order', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('b', 'B\n'), file('a', 'A\n')]));
    const text = lockText(root);
    expect(Object.keys(JSON.parse(text))).toEqual([
      'lockVersion',
      'engineVersion',
      'sources',
      'templates',
      'directories',
      'files',
    ]);
    expect(Object.keys(JSON.parse(text).files)).toEqual(['a', 'b']);
    expect(JSON.parse(text).templates[0]).toEqual({
      name: 'base',
      version: '1.0.0',
      source: 0,
      settings: { b: 1, a: [1, 2] },
    });
    expect(text).not.toMatch(/20\d\d-\d\d-\d\d/);
  });

  it('overwrites a file whose template output changed, and its mode', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'old\n')]));
    const plan = planOf(root, [file('x', 'new\n', { mode: 0o755 })]);
    expect(status(plan).entries).toMatchObject([{ path: 'x', state: 'changed' }]);
    const result = await apply(plan);
    expect(result.written).toEqual(['x']);
    expect(get(root, 'x')).toBe('new\n');
    expect(modeOf(root, 'x')).toBe(0o755);
  });

  it('noop writes nothing and says what would change, with diffs when asked', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'old\n')]));
    const before = lockText(root);
    const plan = planOf(root, [file('x', 'new\n'), file('y', 'y\n')]);
    const result = await apply(plan, { noop: true, diff: true });
    expect(result.message).toBe('Would have changed 2 files');
    expect(result.changedCount).toBe(2);
    expect(result.written).toEqual(['x', 'y']);
    expect(get(root, 'x')).toBe('old\n');
    expect(existsSync(join(root, 'y'))).toBe(false);
    expect(lockText(root)).toBe(before);
    const x = result.entries.find((e) => e.path === 'x')!;
    expect(x.diff).toBe('--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-old\n+new\n');
    expect(result.entries.find((e) => e.path === 'y')!.diff).toBe(
      '--- /dev/null\n+++ b/y\n@@ -0,0 +1,1 @@\n+y\n',
    );
  });

  it('recreates a managed file deleted by hand', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('x', 'x\n')]);
    await apply(plan);
    const { rmSync } = await import('node:fs');
    rmSync(join(root, 'x'));
    expect(status(plan).entries).toMatchObject([
      { path: 'x', state: 'create', reason: 'missing on disk: created again' },
    ]);
    await apply(plan);
    expect(get(root, 'x')).toBe('x\n');
  });

  it('applies only the paths asked for, leaving others and their lock entries alone', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a/1', '1\n'), file('b/2', '2\n')]));
    const plan = planOf(root, [file('a/1', 'one\n'), file('b/2', 'two\n')]);
    const result = await apply(plan, { paths: ['a'] });
    expect(result.written).toEqual(['a/1']);
    expect(get(root, 'b/2')).toBe('2\n');
    expect(status(plan).entries.map((e) => [e.path, e.state])).toEqual([
      ['a/1', 'stable'],
      ['b/2', 'changed'],
    ]);
  });

  it('writes durably (fsync) when asked, with the same result', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('d/x', 'x\n')]);
    const result = await apply(plan, { durable: true });
    expect(result.written).toEqual(['d/x']);
    expect(get(root, 'd/x')).toBe('x\n');
    expect(status(plan).drift).toBe(false);
  });

  it('refuses a plan that has errors, writing nothing', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('x', 'x\n')], {
      problems: [{ severity: 'error', code: 'EPP_SYNTAX', message: 'bad' }],
    });
    await expect(apply(plan)).rejects.toMatchObject({ code: 'SYNC_PLAN_INVALID' });
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  it('refuses to run while another run holds the lock', async () => {
    const root = tmpProject();
    put(root, '.pantograph.lock.lck', `${process.pid}\n${(await import('node:os')).hostname()}\n`);
    await expect(apply(planOf(root, [file('x', 'x\n')]))).rejects.toMatchObject({ code: 'SYNC_LOCKED' });
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  it('asks beforeChanges under the run lock, before any write; its error stops the run with nothing written', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('x', 'x\n'), file('y', 'y\n')]);
    const seen: string[] = [];
    const refused = apply(plan, {
      beforeChanges: (entries) => {
        expect(existsSync(join(root, '.pantograph.lock.lck'))).toBe(true);
        seen.push(...entries.map((e) => `${e.state} ${e.path}`));
        throw new Error('the project is not what the user saw');
      },
    });
    await expect(refused).rejects.toThrow('the project is not what the user saw');
    expect(seen).toEqual(['create x', 'create y']);
    expect(readdirSync(root)).toEqual([]); // no file, no lock, no journal, the run lock released
    // What the caller writes there is written under the lock, before the run's own writes.
    const result = await apply(plan, { beforeChanges: () => put(root, 'caller.txt', 'mine\n') });
    expect(result.written).toEqual(['x', 'y']);
    expect(get(root, 'caller.txt')).toBe('mine\n');
  });

  it('takes over a run lock left by a dead process', async () => {
    const root = tmpProject();
    put(root, '.pantograph.lock.lck', `999999999\n${(await import('node:os')).hostname()}\n`);
    put(root, '.x.pantograph-tmp', 'partial');
    const result = await apply(planOf(root, [file('x', 'x\n')]));
    expect(result.written).toEqual(['x']);
    expect(existsSync(join(root, '.x.pantograph-tmp'))).toBe(false);
    expect(existsSync(join(root, '.pantograph.lock.lck'))).toBe(false);
  });
});

describe('apply: hand edits, conflicts and adoption', () => {
  it('keeps a hand-edited file whose template output did not change, and reports it', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('x', 'tpl\n')]);
    await apply(plan);
    put(root, 'x', 'mine\n');
    expect(status(plan)).toMatchObject({ drift: true, entries: [{ path: 'x', state: 'edited' }] });
    const result = await apply(plan);
    expect(result.skipped).toEqual([{ path: 'x', state: 'edited', reason: 'changed by hand: kept' }]);
    expect(get(root, 'x')).toBe('mine\n');
    const forced = await apply(plan, { force: true });
    expect(forced.written).toEqual(['x']);
    expect(get(root, 'x')).toBe('tpl\n');
  });

  it('stops on a conflict before writing anything, leaving <path>.pantograph-new', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'v1\n'), file('y', 'y1\n')]));
    const lockBefore = lockText(root);
    put(root, 'x', 'mine\n');
    const plan = planOf(root, [file('x', 'v2\n'), file('y', 'y2\n'), file('z', 'z\n')]);
    const result = await apply(plan);
    expect(result.ok).toBe(false);
    expect(result.conflicts).toEqual([
      { path: 'x', template: 'base', newFile: 'x.pantograph-new', resolution: 'new-file' },
    ]);
    expect(result.message).toMatch(/^1 conflict: nothing else was written/);
    expect(get(root, 'x')).toBe('mine\n');
    expect(get(root, 'x.pantograph-new')).toBe('v2\n');
    expect(status(plan).entries[0]).toMatchObject({
      path: 'x',
      state: 'conflict',
      reason: 'awaiting `pantograph resolve` (the new template output is in x.pantograph-new)',
    });
    expect(get(root, 'y')).toBe('y1\n');
    expect(existsSync(join(root, 'z'))).toBe(false);
    expect(lockText(root)).toBe(lockBefore);
    const noop = await apply(plan, { noop: true });
    expect(noop).toMatchObject({ ok: false, conflicts: [{ path: 'x', resolution: 'none' }] });
    expect(noop.message).toBe('1 conflict awaiting `pantograph resolve`: apply would write nothing else');
  });

  it('three-way merges with git merge-file when the previous output is given', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'a\nb\nc\n')]));
    put(root, 'x', 'a\nb\nc\nmine\n');
    const plan = planOf(root, [file('x', 'A\nb\nc\n')]);
    const result = await apply(plan, {
      previousOutput: (p) => (p === 'x' ? Buffer.from('a\nb\nc\n') : undefined),
    });
    expect(result.conflicts).toMatchObject([{ path: 'x', resolution: 'merged', conflicts: 0 }]);
    expect(get(root, 'x')).toBe('A\nb\nc\nmine\n');
    // a second run does not merge again while the merge awaits resolve
    const again = await apply(plan, { previousOutput: () => Buffer.from('a\nb\nc\n') });
    expect(again.conflicts).toMatchObject([{ path: 'x', resolution: 'pending' }]);
    expect(get(root, 'x')).toBe('A\nb\nc\nmine\n');
  });

  it('marks conflicting hunks when the merge cannot be clean', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'a\n')]));
    put(root, 'x', 'mine\n');
    const result = await apply(planOf(root, [file('x', 'theirs\n')]), {
      previousOutput: () => Buffer.from('a\n'),
    });
    expect(result.conflicts).toMatchObject([{ path: 'x', resolution: 'merged', conflicts: 1 }]);
    expect(get(root, 'x')).toBe(
      '<<<<<<< x (yours)\nmine\n=======\ntheirs\n>>>>>>> x (new template output)\n',
    );
  });

  it('force overwrites a conflicting file', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('x', 'v1\n')]));
    put(root, 'x', 'mine\n');
    await apply(planOf(root, [file('x', 'v2\n')]));
    expect(get(root, 'x.pantograph-new')).toBe('v2\n');
    const result = await apply(planOf(root, [file('x', 'v2\n')]), { force: true });
    expect(result.written).toEqual(['x']);
    expect(get(root, 'x')).toBe('v2\n');
    expect(existsSync(join(root, 'x.pantograph-new'))).toBe(false);
  });

  it('adopts an identical existing file silently', async () => {
    const root = tmpProject();
    put(root, 'x', 'same\n');
    const plan = planOf(root, [file('x', 'same\n')]);
    expect(status(plan).entries).toMatchObject([
      { path: 'x', state: 'stable', reason: 'identical: adopted' },
    ]);
    const result = await apply(plan);
    expect(result.written).toEqual([]);
    expect(readLock(root)!.files.get('x')).toBeDefined();
  });

  it('overwrites a different existing file only after confirmation, showing its diff', async () => {
    const root = tmpProject();
    put(root, 'x', 'theirs\n');
    const plan = planOf(root, [file('x', 'ours\n')]);
    const asked: string[] = [];
    const declined = await apply(plan, {
      confirm: (entry, diff) => {
        asked.push(`${entry.path} ${entry.state}\n${diff}`);
        return false;
      },
    });
    expect(asked).toEqual(['x adopt\n--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-theirs\n+ours\n']);
    expect(declined.skipped).toMatchObject([{ path: 'x', state: 'adopt' }]);
    expect(get(root, 'x')).toBe('theirs\n');
    expect(readLock(root)!.files.has('x')).toBe(false);
    const noConfirm = await apply(plan);
    expect(noConfirm.written).toEqual([]);
    expect(get(root, 'x')).toBe('theirs\n');
    const accepted = await apply(plan, { confirm: async () => true });
    expect(accepted.written).toEqual(['x']);
    expect(get(root, 'x')).toBe('ours\n');
  });

  it('overwrites a different existing file with force', async () => {
    const root = tmpProject();
    put(root, 'x', 'theirs\n');
    await apply(planOf(root, [file('x', 'ours\n')]), { force: true });
    expect(get(root, 'x')).toBe('ours\n');
  });
});

describe('apply: removing files', () => {
  it('purges only files the lock says Pantograph wrote', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('keep', 'k\n'), file('old/gone', 'g\n')]));
    put(root, 'users-own', 'u\n');
    const plan = planOf(root, [file('keep', 'k\n')], { purge: true });
    expect(status(plan).entries.map((e) => [e.path, e.state])).toEqual([
      ['keep', 'stable'],
      ['old/gone', 'purge'],
    ]);
    const result = await apply(plan);
    expect(result.removed).toEqual(['old/gone']);
    expect(existsSync(join(root, 'old'))).toBe(false);
    expect(get(root, 'users-own')).toBe('u\n');
    expect(readLock(root)!.directories).toEqual([]);
    expect([...readLock(root)!.files.keys()]).toEqual(['keep']);
  });

  it('without purge, keeps files no template produces any more, as unmanaged', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a\n'), file('b', 'b\n')]));
    const plan = planOf(root, [file('a', 'a\n')]);
    expect(status(plan).entries.map((e) => [e.path, e.state])).toEqual([
      ['a', 'stable'],
      ['b', 'unmanaged'],
    ]);
    await apply(plan);
    expect(get(root, 'b')).toBe('b\n');
    expect(readLock(root)!.files.has('b')).toBe(true);
  });

  it('never purges a hand-edited file without force', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a\n')]));
    put(root, 'a', 'mine\n');
    const plan = planOf(root, [], { purge: true });
    expect(status(plan).entries).toMatchObject([{ path: 'a', state: 'edited' }]);
    await apply(plan);
    expect(get(root, 'a')).toBe('mine\n');
    const forced = await apply(plan, { force: true });
    expect(forced.removed).toEqual(['a']);
  });

  it('removes a managed file whose output became empty, whatever purge says', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a\n')]));
    const plan = planOf(root, [file('a', '  \n')], { purge: false });
    expect(status(plan).entries).toMatchObject([
      { path: 'a', state: 'delete', reason: 'the template output is now empty' },
    ]);
    const result = await apply(plan);
    expect(result.removed).toEqual(['a']);
    expect(existsSync(join(root, 'a'))).toBe(false);
  });

  it('does not write an empty output, nor remove a file of that name it did not write', async () => {
    const root = tmpProject();
    put(root, 'b', 'users\n');
    const result = await apply(planOf(root, [file('a', '\n'), file('b', '')]));
    expect(result.written).toEqual([]);
    expect(existsSync(join(root, 'a'))).toBe(false);
    expect(get(root, 'b')).toBe('users\n');
  });

  it('removes files listed in delete, by path and by glob', async () => {
    const root = tmpProject();
    put(root, '.travis.yml', 't\n');
    put(root, 'old/x.bak', 'b\n');
    put(root, 'old/y.txt', 'y\n');
    put(root, '.sync.yml', 's\n');
    const plan = planOf(root, [file('a', 'a\n')], {
      delete: ['.travis.yml', 'old/*.bak', 'missing.txt', '*.yml'],
    });
    expect(status(plan).entries.map((e) => [e.path, e.state])).toEqual([
      ['.travis.yml', 'delete'],
      ['a', 'create'],
      ['old/x.bak', 'delete'],
    ]);
    const result = await apply(plan);
    expect(result.removed).toEqual(['.travis.yml', 'old/x.bak']);
    expect(get(root, 'old/y.txt')).toBe('y\n');
    expect(get(root, '.sync.yml')).toBe('s\n');
  });

  it('refuses a plan that both produces and deletes a path', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a', 'a\n')], { delete: ['a'] });
    await expect(apply(plan)).rejects.toMatchObject({ code: 'SYNC_PLAN_INVALID', path: 'a' });
  });

  it('never writes or removes unmanaged paths', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('Gemfile', 'v1\n'), file('spec/a', 'a\n')]));
    put(root, 'Gemfile', 'mine\n');
    const plan = planOf(root, [file('Gemfile', 'v2\n')], { unmanaged: ['Gemfile', 'spec'], purge: true });
    expect(status(plan).entries.map((e) => [e.path, e.state])).toEqual([
      ['Gemfile', 'unmanaged'],
      ['spec/a', 'unmanaged'],
    ]);
    const result = await apply(plan);
    expect(result.written).toEqual([]);
    expect(result.removed).toEqual([]);
    expect(get(root, 'Gemfile')).toBe('mine\n');
    expect(get(root, 'spec/a')).toBe('a\n');
    expect(readLock(root)!.files.size).toBe(0);
  });
});

describe('apply: init files', () => {
  it('writes init files only for a new project, only when missing, and never again', async () => {
    const root = tmpProject();
    put(root, 'README.md', 'users readme\n');
    const init = (content: string) => [
      file('README.md', content, { kind: 'init' }),
      file('CHANGELOG.md', content, { kind: 'init' }),
    ];
    const first = await apply(planOf(root, [...init('init\n'), file('a', 'a\n')], { isNew: true }));
    expect(first.written).toEqual(['CHANGELOG.md', 'a']);
    expect(get(root, 'README.md')).toBe('users readme\n');
    expect(readLock(root)!.files.get('CHANGELOG.md')).toMatchObject({ kind: 'init' });
    expect(readLock(root)!.files.get('README.md')).toMatchObject({ kind: 'init' });
    put(root, 'CHANGELOG.md', 'edited\n');
    // later runs: not new, init files no longer planned; even a plan claiming isNew changes nothing
    const later = planOf(root, [...init('init v2\n'), file('a', 'a\n')], { isNew: true, purge: true });
    expect(status(later).entries.map((e) => [e.path, e.state])).toEqual([
      ['CHANGELOG.md', 'init'],
      ['README.md', 'init'],
      ['a', 'stable'],
    ]);
    const result = await apply(planOf(root, [file('a', 'a\n')], { purge: true }));
    expect(result.removed).toEqual([]);
    expect(get(root, 'CHANGELOG.md')).toBe('edited\n');
  });
});

describe('apply: post commands', () => {
  it('runs matching commands on written files, with {} or the path appended, and locks the result', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a.txt', 'hello\n'), file('dir/b.md', 'md\n')], {
      post: [
        {
          glob: '*.txt',
          command: `${process.execPath} -e "require('fs').appendFileSync(process.argv[1], 'post\\n')" {}`,
        },
        {
          glob: '*.md',
          command: `${process.execPath} -e "require('fs').appendFileSync(process.argv[1], '!')"`,
        },
      ],
    });
    const result = await apply(plan);
    expect(result.ok).toBe(true);
    expect(result.post.map((p) => [p.path, p.ok])).toEqual([
      ['a.txt', true],
      ['dir/b.md', true],
    ]);
    expect(get(root, 'a.txt')).toBe('hello\npost\n');
    expect(get(root, 'dir/b.md')).toBe('md\n!');
    expect(status(plan).drift).toBe(false);
    const lock = lockText(root);
    const again = await apply(plan);
    expect(again.post).toEqual([]);
    expect(lockText(root)).toBe(lock);
  });

  it('reports a failing command with its output, and redoes the file next time', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a.txt', 'hello\n')], {
      post: [{ glob: '*.txt', command: `${process.execPath} -e "console.error('boom'); process.exit(3)"` }],
    });
    const result = await apply(plan);
    expect(result.ok).toBe(false);
    expect(result.message).toBe('1 post command failed');
    expect(result.post).toMatchObject([{ path: 'a.txt', ok: false, status: 3, output: 'boom\n' }]);
    expect(status(plan).entries).toMatchObject([
      { path: 'a.txt', state: 'changed', reason: 'post commands failed or did not finish last time' },
    ]);
  });

  it('refuses a command with {} inside a larger word before anything is written', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a$(touch PWN).rb', 'x\n')], {
      post: [{ glob: '*.rb', command: "sh -c 'echo formatting {}'" }],
    });
    await expect(apply(plan)).rejects.toMatchObject({
      code: 'SYNC_PLAN_INVALID',
      message: expect.stringContaining('has {} inside the argument "echo formatting {}"'),
      hint: expect.stringContaining(`sh -c 'fmt "$1" || true' sh {}`),
    });
    expect(readdirSync(root)).toEqual([]);
  });

  it('reports a command that does not exist', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a.txt', 'x\n')], {
      post: [{ glob: '*', command: 'no-such-command-xyz {}' }],
    });
    const result = await apply(plan);
    expect(result.post).toMatchObject([{ ok: false, status: null }]);
    expect(result.post[0]!.output).toMatch(/ENOENT/);
  });
});
