/**
 * An apply killed while writing leaves its journal (`.pantograph.lock.pending`): the next `status` and
 * `apply` say so, and apply finishes the job. The killed run is reproduced as it leaves a project: some
 * files already new, the lock still old, the journal holding the lock the run meant to write (what a
 * complete apply of the same change writes).
 */
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';
import { read, repoTree, syncYml } from './fixtures.js';

afterEach(() => removeTempDirs());

describe('an interrupted apply', () => {
  it('status and apply say so; apply finishes the job and clears the journal', async () => {
    const repo = tempTree(repoTree());
    const root = tempTree({ '.sync.yml': syncYml(repo) });
    expect((await run(root, 'apply')).code).toBe(0);
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, 'base:\n  greeting: hi\n'));
    // What the complete run would have written, taken from a copy of the project.
    const done = tempDir();
    cpSync(root, done, { recursive: true });
    expect((await run(done, 'apply')).code).toBe(0);
    writeFileSync(join(root, 'config.txt'), read(done, 'config.txt'));
    writeFileSync(join(root, '.pantograph.lock.pending'), read(done, '.pantograph.lock'));

    const status = await run(root, 'status');
    expect(status).toEqual({
      code: 0,
      stderr: '',
      stdout: `note: an earlier apply was interrupted (it left .pantograph.lock.pending); the files
      it wrote are known as Pantograph's, and \`pantograph apply\` finishes the job
all 3 files in line: no drift
`,
    });
    expect((await runJson(root, 'status')).json).toMatchObject({ interrupted: true, drift: false });
    expect((await runJson(root, 'apply', '--noop')).json).toMatchObject({ interrupted: true, ok: true });

    expect(await run(root, 'apply')).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'note: finishing an earlier apply that was interrupted (it left .pantograph.lock.pending)\nNo file to change; .pantograph.lock brought up to date\n',
    });
    expect(existsSync(join(root, '.pantograph.lock.pending'))).toBe(false);
    expect(read(root, '.pantograph.lock')).toBe(read(done, '.pantograph.lock'));
    expect(await run(root, 'status')).toEqual({
      code: 0,
      stderr: '',
      stdout: 'all 3 files in line: no drift\n',
    });
    expect((await runJson(root, 'apply')).json).toMatchObject({ interrupted: false });
  });
});
