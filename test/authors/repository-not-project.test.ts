/**
 * An author who runs a project's command in a template repository (following the guide's `validate`)
 * is told it is a template repository and how to check one, not to run `pantograph init` there.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a project command in a template repository', () => {
  it.each([
    'validate',
    'status',
    'apply',
  ])('%s: names the repository and the commands that check it, writes nothing', (command) => {
    const repo = tempTree({
      'my_template/template.json': JSON.stringify({ name: 'my_template', default_settings: {} }),
      'my_template/files/a.txt': 'a\n',
      'other/template.json': JSON.stringify({ name: 'other', default_settings: {} }),
    });
    const cwd = tempDir();
    const before = snapshotDir(repo);
    const r = cli(cwd, command, '-C', repo);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: no .sync.yml in ${repo} [SYNC_NOT_FOUND]`);
    expect(r.stderr).toContain(
      'hint: this is a template repository (my_template, other), not a project: check it with `pantograph test` and `pantograph docs --check` run in it (or with -C DIR)',
    );
    expect(r.stderr).not.toContain('pantograph init');
    expect(snapshotDir(repo)).toEqual(before);
  });

  it('a directory that holds no template keeps the hint to run `pantograph init`', () => {
    const dir = tempTree({ 'notes/readme.txt': 'x\n' });
    const r = cli(dir, 'validate');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'hint: run `pantograph init` to create one, or point at the project with -C DIR',
    );
  });
});
