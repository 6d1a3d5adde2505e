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

describe('--quiet', () => {
  it('prints only errors for the commands that report, with their exit codes', () => {
    const { root } = conflictingProject();
    writeFileSync(join(root, 'static.txt'), 'static, mine\n');
    const status = cli(root, ['-q', 'status', '--check']);
    expect(status).toEqual({ code: 2, stdout: '', stderr: '' });
    // After the option's name too, as commander takes global options.
    expect(cli(root, ['status', '--quiet', '--check'])).toEqual({ code: 2, stdout: '', stderr: '' });
    const apply = cli(root, ['-q', 'apply']);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toBe('');
    expect(apply.stderr).toBe(
      "error: 1 conflict: nothing else was written. Finish each file's merge (where it was merged in place, what conflicts is between <<<<<<< and >>>>>>>; the new template output alone is in <path>.pantograph-new), then run `pantograph resolve <path>`, or apply with --force to overwrite\n",
    );
    expect(cli(root, ['-q', 'resolve', 'config.txt'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(cli(root, ['-q', 'apply'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(cli(root, ['-q', 'remove'])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('keeps what a command exists to print: render, and --format json', () => {
    const repo = tempTree(repoTree());
    const root = tempTree({ '.sync.yml': syncYml(repo) });
    expect(cli(root, ['-q', 'render', 'static.txt'])).toEqual({
      code: 0,
      stdout: '==> static.txt (base) <==\nstatic\n',
      stderr: '',
    });
    const json = cli(root, ['-q', '--format', 'json', 'apply', '--noop']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ noop: true, ok: true, changed: 3 });
  });

  it('drops warnings, and a clean status kept by the memo stays silent', () => {
    const repo = tempTree(repoTree({ config: '<%= $nope %>x\n' }));
    const root = tempTree({ '.sync.yml': syncYml(repo) });
    const loud = cli(root, ['apply', '--no-strict']);
    expect(loud.code).toBe(0);
    expect(loud.stderr).toContain('warning:');
    expect(cli(root, ['-q', 'apply', '--no-strict'])).toEqual({ code: 0, stdout: '', stderr: '' });
    const clean = tempTree({ '.sync.yml': syncYml(tempTree(repoTree())) });
    expect(cli(clean, ['apply']).code).toBe(0);
    for (let i = 0; i < 2; i++)
      expect(cli(clean, ['-q', 'status'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(cli(clean, ['status']).stdout).toBe('all 3 files in line: no drift\n');
  });
});

describe('long messages at 80 columns', () => {
  it('fold at the terminal width (COLUMNS), never inside a path or a code span; a reason under its column', () => {
    const { root } = conflictingProject();
    writeFileSync(join(root, 'static.txt'), 'static, mine\n');
    const status = cli(root, ['status'], { COLUMNS: '80' });
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(
      'STATE     PATH        TEMPLATE  REASON\n' +
        'conflict  config.txt  base      changed by hand, and the\n' +
        '                                template output changed too\n' +
        'edited    static.txt  base      changed by hand: kept\n' +
        '1 edited, 1 conflict, 1 init: drift (merge each conflict (`pantograph apply`\n' +
        '  writes the new output beside it), then `pantograph resolve <path>`;\n' +
        '  if `pantograph update` stopped on them, run it again once they are\n' +
        '  resolved; keep changes made by hand with `pantograph resolve <path>`,\n' +
        '  or restore the template output with `pantograph apply --force`)\n',
    );
    const apply = cli(root, ['apply'], { COLUMNS: '80' });
    expect(apply.code).toBe(1);
    expect(apply.stdout).toBe(
      'conflict  config.txt: merged cleanly with the new template output: review it\n',
    );
    expect(apply.stderr).toBe(
      "error: 1 conflict: nothing else was written. Finish each file's merge\n" +
        '  (where it was merged in place, what conflicts is between <<<<<<< and\n' +
        '  >>>>>>>; the new template output alone is in <path>.pantograph-new),\n' +
        '  then run `pantograph resolve <path>`, or apply with --force to overwrite\n',
    );
    for (const line of `${status.stdout}${apply.stdout}${apply.stderr}`.split('\n'))
      expect(line.length).toBeLessThanOrEqual(80);
  });

  it("puts each reason under its row's path where its column would be too narrow (60 columns)", () => {
    const { root } = conflictingProject();
    writeFileSync(join(root, 'static.txt'), 'static, mine\n');
    const status = cli(root, ['status'], { COLUMNS: '60' });
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(
      'STATE     PATH        TEMPLATE\n' +
        'conflict  config.txt  base\n' +
        '          changed by hand, and the\n' +
        '          template output changed too\n' +
        'edited    static.txt  base\n' +
        '          changed by hand: kept\n' +
        '1 edited, 1 conflict, 1 init: drift (merge each\n' +
        '  conflict (`pantograph apply` writes the new output\n' +
        '  beside it), then `pantograph resolve <path>`; if\n' +
        '  `pantograph update` stopped on them, run it again\n' +
        '  once they are resolved; keep changes made by hand\n' +
        '  with `pantograph resolve <path>`, or restore the\n' +
        '  template output with `pantograph apply --force`)\n',
    );
  });

  it('a hint folds under its text; piped without COLUMNS, nothing folds', () => {
    const repo = tempTree(repoTree());
    const root = tempTree({ '.sync.yml': syncYml(repo), 'config.txt': 'mine\n' });
    const folded = cli(root, ['apply'], { COLUMNS: '80' });
    expect(folded.code).toBe(1);
    expect(folded.stderr).toBe(
      'error: 1 file exists and differs from the template output,\n' +
        '  and Pantograph never wrote it: nothing was written\n' +
        '  hint: review with `pantograph status --diff`, then run apply on\n' +
        '        a terminal to confirm each file, with --yes to overwrite\n' +
        '        these files, or with --force to overwrite every file\n',
    );
    const piped = cli(root, ['apply']);
    expect(piped.stderr).toBe(
      'error: 1 file exists and differs from the template output, and Pantograph never wrote it: nothing was written\n' +
        '  hint: review with `pantograph status --diff`, then run apply on a terminal to confirm each file, with --yes to overwrite these files, or with --force to overwrite every file\n',
    );
    // JSON is never folded.
    const json = cli(root, ['--format', 'json', 'apply'], { COLUMNS: '80' });
    expect(JSON.parse(json.stdout).hint).toBe(
      'review with `pantograph status --diff`, then run apply on a terminal to confirm each file, with --yes to overwrite these files, or with --force to overwrite every file',
    );
  });
});

/** `script` (util-linux) runs a command on a pseudo-terminal. */
const hasScript = spawnSync('script', ['--version']).status === 0;

describe.runIf(hasScript)('on a real terminal', () => {
  it('folds at its width with no COLUMNS set', () => {
    const { root } = conflictingProject();
    const { COLUMNS: _, ...env } = process.env;
    const r = spawnSync(
      'script',
      [
        '-qc',
        `stty cols 60; NO_COLOR=1 ${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} status`,
        '/dev/null',
      ],
      { cwd: root, encoding: 'utf8', env },
    );
    const lines = r.stdout.replace(/\r/g, '').trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    // Folded, not cut: the same words, the code spans whole.
    const summary = lines.slice(lines.findIndex((l) => l.startsWith('1 stable')));
    expect(summary.length).toBeGreaterThan(3);
    expect(summary.map((l) => l.trim()).join(' ')).toBe(
      '1 stable, 1 conflict, 1 init: drift (merge each conflict (`pantograph apply` writes the new output beside it), then `pantograph resolve <path>`; if `pantograph update` stopped on them, run it again once they are resolved)',
    );
  });
});
