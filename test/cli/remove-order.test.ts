/**
 * `pantograph remove` lists what it removed in the order it removed it: the files, then each directory
 * after the directories inside it (a directory listed before its subdirectory could not have been removed
 * first), alphabetical otherwise, and the same on every run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contentsFirst } from '../../src/sync/remove.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
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
