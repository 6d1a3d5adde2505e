/**
 * Issue 11, item 10: `--force` says what it did and keeps what it destroys. A hand-edited file overwritten
 * (apply --force) or removed (purge under --force, remove --force) is saved first as
 * `<path>.pantograph-old` (`.pantograph-old.2`... when that exists: an earlier copy is never overwritten),
 * and the report names the copy instead of saying "kept".
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { read, repoTree, syncYml } from '../apply-cli/fixtures.js';
import { run, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

async function editedProject(more = '', templates = '[]') {
  const repo = tempTree(repoTree());
  const root = tempTree({ '.sync.yml': syncYml(repo, more, templates) });
  expect((await run(root, 'apply')).code).toBe(0);
  writeFileSync(join(root, 'config.txt'), read(root, 'config.txt').replace('line 4', 'line 4: mine'));
  return { repo, root };
}

describe('apply --force over a hand edit', () => {
  it('overwrites it, saves the edit beside it, and says so', async () => {
    const { root } = await editedProject();
    const edited = read(root, 'config.txt');
    const r = await run(root, 'apply', '--force');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'edited    config.txt  (changed by hand: overwritten under --force; your version is saved as config.txt.pantograph-old)',
    );
    expect(r.stdout).not.toContain('kept');
    expect(read(root, 'config.txt.pantograph-old')).toBe(edited);
    expect(read(root, 'config.txt')).not.toContain('mine');
  });

  it('says of an adopted file that it was never written by Pantograph, whatever confirmed it', async () => {
    const repo = tempTree(repoTree());
    const root = tempTree({ '.sync.yml': syncYml(repo), 'config.txt': 'my own config\n' });
    const r = await run(root, 'apply', '--yes');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'adopt     config.txt  (never written by Pantograph: overwritten as confirmed; your version is saved as config.txt.pantograph-old)',
    );
    expect(r.stdout).not.toContain('--force');
    expect(read(root, 'config.txt.pantograph-old')).toBe('my own config\n');
  });

  it('never overwrites an earlier copy: the next one is .pantograph-old.2', async () => {
    const { root } = await editedProject();
    writeFileSync(join(root, 'config.txt.pantograph-old'), 'an earlier copy\n');
    const { json } = await runJson<{ backups: unknown[] }>(root, 'apply', '--force');
    expect(json.backups).toEqual([{ path: 'config.txt', backup: 'config.txt.pantograph-old.2' }]);
    expect(read(root, 'config.txt.pantograph-old')).toBe('an earlier copy\n');
    expect(read(root, 'config.txt.pantograph-old.2')).toContain('line 4: mine');
  });

  it('a purge under --force of a hand-edited file keeps the edit too', async () => {
    const repo = tempTree(repoTree());
    const root = tempTree({ '.sync.yml': syncYml(repo, '  purge: true\n', '[extra]') });
    expect((await run(root, 'apply')).code).toBe(0);
    writeFileSync(join(root, 'extra/extra.txt'), 'my notes\n');
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, '  purge: true\n', '[]'));
    const kept = await run(root, 'apply');
    expect(kept.stdout).toContain('kept      extra/extra.txt');
    expect(existsSync(join(root, 'extra/extra.txt'))).toBe(true);
    const forced = await run(root, 'apply', '--force');
    expect(forced.stdout).toContain(
      'extra/extra.txt  (changed by hand: removed under --force; your version is saved as extra/extra.txt.pantograph-old)',
    );
    expect(existsSync(join(root, 'extra/extra.txt'))).toBe(false);
    expect(readFileSync(join(root, 'extra/extra.txt.pantograph-old'), 'utf8')).toBe('my notes\n');
  });

  it('remove --force saves hand edits before removing them', async () => {
    const { root } = await editedProject();
    const r = await run(root, 'remove', '--force');
    expect(r.stdout).toContain(
      'removed   config.txt  (changed by hand: your version is saved as config.txt.pantograph-old)',
    );
    expect(read(root, 'config.txt.pantograph-old')).toContain('line 4: mine');
  });
});
