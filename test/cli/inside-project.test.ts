/**
 * A module developer works in `manifests/` or `spec/`. The commands take the working directory as the
 * project (`-C` to point elsewhere); run there, they said `run \`pantograph init\`` (a new project inside
 * the module!), and `remove` said "nothing to remove". Each now names the project above and the `-C` that
 * reaches it, exits 1 and writes nothing.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { METADATA, run } from './cli-helpers.js';

afterEach(() => removeTempDirs());

const SYNC = 'pdk_template:\n  version: 2\n';

async function appliedModule(): Promise<string> {
  const root = tempTree({
    '.sync.yml': SYNC,
    'metadata.json': METADATA,
    'manifests/init.pp': 'class widget {}\n',
  });
  expect((await run(root, 'apply')).code).toBe(0);
  mkdirSync(join(root, 'manifests/sub'));
  return root;
}

describe('a command run in a directory of a project', () => {
  it.each([
    ['status'],
    ['apply'],
    ['validate'],
    ['remove'],
    ['resolve', 'Gemfile'],
    ['add', 'template', 'vscode'],
  ])('%s: names the project and the -C that reaches it; nothing written', async (...command) => {
    const root = await appliedModule();
    const before = snapshotDir(root);
    const r = await run(join(root, 'manifests/sub'), ...command);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: no .sync.yml in ${join(root, 'manifests/sub')} [SYNC_NOT_FOUND]`);
    expect(r.stderr).toContain(
      `hint: this is inside the project ${root}: run there, or point at it with -C ../..`,
    );
    expect(r.stderr).not.toContain('pantograph init');
    expect(snapshotDir(root)).toEqual(before);
  });

  it('-C as the hint says runs the command on the project', async () => {
    const root = await appliedModule();
    const r = await run(join(root, 'manifests/sub'), '-C', '../..', 'status');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('outside any project: init is still what the hint offers, and remove has nothing to do', async () => {
    const dir = tempDir();
    const status = await run(dir, 'status');
    expect(status.stderr).toContain(
      'hint: run `pantograph init` to create one, or point at the project with -C DIR',
    );
    const remove = await run(dir, 'remove');
    expect(remove.code).toBe(0);
    expect(remove.stdout).toBe('nothing to remove: Pantograph manages no file here\n');
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('-C naming a file, not a directory', () => {
  it.each([
    ['status'],
    ['apply'],
    ['remove'],
    ['show', 'gemfile'],
    ['new', 'class', 'x'],
  ])('%s: says so, exit 1, nothing written', async (...command) => {
    const root = await appliedModule();
    const before = snapshotDir(root);
    const r = await run(root, '-C', 'metadata.json', ...command);
    expect(r.stderr).toBe(
      "error: -C metadata.json is not a directory\n  hint: give the project's directory (the one holding .sync.yml)\n",
    );
    expect(r.code).toBe(1);
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('-C naming a directory that does not exist (a typo)', () => {
  it.each([
    ['status'],
    ['apply'],
    ['validate'],
    ['show', 'gemfile'],
  ])('%s: says it does not exist, not "run init"; exit 1, nothing written', async (...command) => {
    const root = await appliedModule();
    const before = snapshotDir(root);
    const r = await run(root, '-C', 'modlue', ...command);
    expect(r.stderr).toContain(
      `error: ${join(root, 'modlue')} does not exist [SYNC_NOT_FOUND]\n  hint: check the project directory given (-C DIR); \`pantograph init DIR\` creates a new project there\n`,
    );
    expect(r.code).toBe(1);
    expect(snapshotDir(root)).toEqual(before);
  });
});
