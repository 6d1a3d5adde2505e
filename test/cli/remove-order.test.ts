/**
 * `pantograph remove` lists what it removed in the order it removed it: the files, then each directory
 * after the directories inside it (a directory listed before its subdirectory could not have been removed
 * first), alphabetical otherwise, and the same on every run. `remove --noop` says the same of what a run
 * would do, and removes nothing.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentsFirst } from '../../src/sync/remove.js';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { run, templates } from './cli-helpers.js';

afterEach(() => removeTempDirs());

describe('pantograph remove', () => {
  it('lists each directory after the directories inside it, as it removes them', async () => {
    const repo = tempTree(
      templates('', {
        base: {
          'template.json': { version: '1.0.0', always_apply: true, default_settings: {} },
          'files/.github/workflows/ci.yml': 'ci\n',
          'files/spec/fixtures/a.txt': 'a\n',
          'files/spec/b/c.txt': 'c\n',
          'files/spec-helper/d.txt': 'd\n',
        },
      }),
    );
    const root = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: []\n`,
    });
    expect((await run(root, 'apply')).code).toBe(0);
    expect(await run(root, 'remove')).toEqual({
      code: 0,
      stderr: '',
      stdout: `removed   .github/workflows/ci.yml
removed   spec-helper/d.txt
removed   spec/b/c.txt
removed   spec/fixtures/a.txt
removed   .github/workflows/
removed   .github/
removed   spec/b/
removed   spec/fixtures/
removed   spec/
removed   spec-helper/
removed 4 files and 6 directories, kept 0 files
`,
    });
  });

  it('--noop says what remove would remove, keep and save, and removes nothing', async () => {
    const repo = tempTree(
      templates('', {
        base: {
          'template.json': { version: '1.0.0', always_apply: true, default_settings: {} },
          'files/spec/b/c.txt': 'c\n',
          'files/spec/mine.txt': 'generated\n',
          'files/top.txt': 'top\n',
        },
      }),
    );
    const root = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: []\n`,
    });
    expect((await run(root, 'apply')).code).toBe(0);
    writeFileSync(join(root, 'spec/mine.txt'), 'my edit\n');
    // A file of the user's beside a managed one: its directory stays, in the plan as in the run.
    writeFileSync(join(root, 'spec/b/notes.txt'), 'mine\n');
    const before = snapshotDir(root);
    expect(await run(root, 'remove', '--noop')).toEqual({
      code: 0,
      stderr: '',
      stdout: `remove    spec/b/c.txt
remove    top.txt
keep      spec/mine.txt  (changed by hand)
Would have removed 2 files and 0 directories, kept 1 file
1 file with your changes is still managed: \`pantograph remove --force\` removes it too, saving your version as <path>.pantograph-old first
`,
    });
    expect((await run(root, 'remove', '--noop', '--force')).stdout).toBe(`remove    spec/b/c.txt
remove    spec/mine.txt  (changed by hand: your version would be saved as spec/mine.txt.pantograph-old)
remove    top.txt
Would have removed 3 files and 0 directories, kept 0 files
`);
    expect(snapshotDir(root)).toEqual(before);
    // What it said is what a run then does (spec/b keeps the user's notes.txt: spec/b and spec stay).
    const removed = await run(root, 'remove', '--force');
    expect(removed.stdout).toBe(`removed   spec/b/c.txt
removed   spec/mine.txt  (changed by hand: your version is saved as spec/mine.txt.pantograph-old)
removed   top.txt
removed 3 files and 0 directories, kept 0 files
`);
  });

  it('--noop counts the directories the run would leave empty, and only those', async () => {
    const repo = tempTree(
      templates('', {
        base: {
          'template.json': { version: '1.0.0', always_apply: true, default_settings: {} },
          'files/a/b/c.txt': 'c\n',
          'files/a/d.txt': 'd\n',
          'files/e/f.txt': 'f\n',
        },
      }),
    );
    const root = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: []\n`,
    });
    expect((await run(root, 'apply')).code).toBe(0);
    writeFileSync(join(root, 'e/yours.txt'), 'yours\n');
    const noop = await run(root, '--format', 'json', 'remove', '--noop');
    expect(JSON.parse(noop.stdout)).toMatchObject({
      noop: true,
      removed: ['a/b/c.txt', 'a/d.txt', 'e/f.txt'],
      directoriesRemoved: ['a/b', 'a'],
    });
    const real = JSON.parse((await run(root, '--format', 'json', 'remove')).stdout);
    expect(real.removed).toEqual(['a/b/c.txt', 'a/d.txt', 'e/f.txt']);
    expect(real.directoriesRemoved).toEqual(['a/b', 'a']);
  });

  it('orders paths by segment, contents first, whatever the order given', () => {
    const paths = ['spec', 'a', 'spec/fixtures', 'spec-helper', 'a/b/c', 'a/b', 'spec/b'];
    expect([...paths].sort(contentsFirst)).toEqual([
      'a/b/c',
      'a/b',
      'a',
      'spec/b',
      'spec/fixtures',
      'spec',
      'spec-helper',
    ]);
    expect([...paths].reverse().sort(contentsFirst)).toEqual([...paths].sort(contentsFirst));
  });
});
