/**
 * A new user writes `templates: rubocop` (one name, no list): the error says what to write instead, at
 * the value, and nothing is written.
 */
import { afterEach, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { METADATA, run } from './cli-helpers.js';

afterEach(() => removeTempDirs());

it.each([
  ['templates', 'rubocop', '`templates: [rubocop]`'],
  ['unmanaged', 'Gemfile', '`unmanaged: [Gemfile]`'],
  ['delete', '.travis.yml', '`delete: [.travis.yml]`'],
])('%s: %s, not a list: the hint shows the list to write', async (key, value, example) => {
  const root = tempTree({
    '.sync.yml': `pdk_template:\n  version: 2\n  ${key}: ${value}\n`,
    'metadata.json': METADATA,
  });
  const before = snapshotDir(root);
  const r = await run(root, 'apply');
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(
    `.sync.yml:3:${key.length + 5}: error: pdk_template.${key} must be a list [SYNC_INVALID]`,
  );
  expect(r.stderr).toContain(
    `hint: write a list: ${example}, or each entry on a line of its own under the key`,
  );
  expect(snapshotDir(root)).toEqual(before);
});
