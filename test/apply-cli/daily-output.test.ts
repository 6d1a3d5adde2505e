/**
 * The command line's daily output, run as a user runs it (`node dist/cli/bin.cjs`, built first): what
 * `apply --noop --diff` shows of a conflict, a lock a hand merge gave a key twice, `--quiet`, and long
 * messages wrapped at the terminal's width.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { read, repoTree, syncYml } from './fixtures.js';

afterEach(() => removeTempDirs());

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

/** `pantograph ...args` in `cwd`, its output piped; `env` adds variables (COLUMNS). */
function cli(cwd: string, args: string[], env: Record<string, string> = {}) {
  const { COLUMNS: _, ...inherited } = process.env;
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...inherited, NO_COLOR: '1', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** An applied project whose config.txt the user changed on line 4, and whose settings then changed. */
function conflictingProject(): { repo: string; root: string } {
  const repo = tempTree(repoTree());
  const root = tempTree({ '.sync.yml': syncYml(repo) });
  expect(cli(root, ['apply']).code).toBe(0);
  writeFileSync(join(root, 'config.txt'), read(root, 'config.txt').replace('line 4', 'line 4: mine'));
  writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'base:\n  greeting: hi\n'));
  return { repo, root };
}

describe('apply --noop --diff on a conflict', () => {
  it('shows the merge apply would write, not the template output --force would', () => {
    const { root } = conflictingProject();
    const before = snapshotDir(root);
    const r = cli(root, ['apply', '--noop', '--diff']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'conflict  config.txt: changed by hand and by the templates: apply would merge them cleanly\n' +
        '--- a/config.txt\n+++ b/config.txt\n@@ -1,6 +1,6 @@\n # config\n-greeting = hello\n+greeting = hi\n' +
        ' line 2\n line 3\n line 4: mine\n line 5\n',
    );
    expect(r.stdout).not.toContain('-line 4: mine');
    expect(snapshotDir(root)).toEqual(before);
    // ... and apply then writes just that.
    expect(cli(root, ['apply']).code).toBe(1);
    expect(read(root, 'config.txt')).toBe(
      '# config\ngreeting = hi\nline 2\nline 3\nline 4: mine\nline 5\nitems = a\n',
    );
  });

  it('shows the conflict markers apply would leave where both changed the same line', () => {
    const { root } = conflictingProject();
    writeFileSync(
      join(root, 'config.txt'),
      read(root, 'config.txt').replace('greeting = hello', 'greeting = mine'),
    );
    const before = snapshotDir(root);
    const r = cli(root, ['apply', '--noop', '--diff']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'conflict  config.txt: changed by hand and by the templates: apply would merge them, 1 conflict marked in the file\n' +
        '--- a/config.txt\n+++ b/config.txt\n@@ -1,6 +1,10 @@\n # config\n' +
        '+<<<<<<< config.txt (yours)\n greeting = mine\n+=======\n+greeting = hi\n+>>>>>>> config.txt (new template output)\n' +
        ' line 2\n line 3\n line 4: mine\n line 5\n',
    );
    expect(snapshotDir(root)).toEqual(before);
  });

  it('under --format json, says the resolution apply would take and its diff', () => {
    const { root } = conflictingProject();
    const r = cli(root, ['--format', 'json', 'apply', '--noop', '--diff']);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as { conflicts: Record<string, unknown>[] };
    expect(json.conflicts).toEqual([
      {
        path: 'config.txt',
        template: 'base',
        newFile: 'config.txt.pantograph-new',
        resolution: 'none',
        planned: 'merged',
        conflicts: 0,
        diff: expect.stringContaining('+greeting = hi\n'),
      },
    ]);
  });
});

describe('a lock file with a key given twice (a bad hand merge)', () => {
  it('is an error at the second key naming the first, with what to do; nothing is written', () => {
    const repo = tempTree(repoTree());
    const root = tempTree({ '.sync.yml': syncYml(repo) });
    expect(cli(root, ['apply']).code).toBe(0);
    const path = join(root, '.pantograph.lock');
    const lines = readFileSync(path, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"config.txt"'));
    // Both sides of a merge kept: the same file twice, one with another digest.
    lines.splice(at + 1, 0, lines[at]!.replace('"disk":"', '"disk":"0').replace(/,?$/, ','));
    writeFileSync(path, lines.join('\n'));
    const before = snapshotDir(root);
    for (const command of [['status'], ['apply'], ['apply', '--noop'], ['remove'], ['update']]) {
      const r = cli(root, command);
      expect(r.code, command.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        `.pantograph.lock:${at + 2}:5: error: .pantograph.lock is not a valid Pantograph lock file: "files"."config.txt" is given twice (first at line ${at + 1}, column 5) [SYNC_LOCK_INVALID]\n`,
      );
      expect(r.stderr).toContain(
        '  hint: A hand merge kept both sides: delete one of the two (or take one side whole: `git checkout --theirs .pantograph.lock`, or `--ours`), then run `pantograph apply`',
      );
    }
    expect(snapshotDir(root)).toEqual(before);
  });
});
