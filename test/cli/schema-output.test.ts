/**
 * `pantograph schema --output FILE` where FILE cannot be written (a directory that does not exist, a
 * directory): the path and what to do, exit 1, nothing written; not Node's "ENOENT: no such file or
 * directory, open ...".
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';
import { METADATA, run } from './cli-helpers.js';

afterEach(() => removeTempDirs());

it.each([
  ['nowhere/schema.json', 'ENOENT', 'its directory does not exist: create it, or give another --output'],
  ['spec', 'EISDIR', 'it is a directory: name a file in it, or give another --output'],
])('--output %s: %s, said with the path and what to do', async (output, code, hint) => {
  const root = tempTree({ '.sync.yml': 'pdk_template:\n  version: 2\n', 'metadata.json': METADATA });
  mkdirSync(join(root, 'spec'));
  const before = snapshotDir(root);
  const r = await run(root, 'schema', '--output', output);
  expect(r.stderr).toBe(`error: cannot write ${output} (${code})\n  hint: ${hint}\n`);
  expect(r.code).toBe(1);
  expect(snapshotDir(root)).toEqual(before);
});

it('--output in the project: written, and the line to add to .sync.yml said', async () => {
  const root = tempTree({ '.sync.yml': 'pdk_template:\n  version: 2\n', 'metadata.json': METADATA });
  const r = await run(root, 'schema', '--output', '.sync.schema.json');
  expect(r.code).toBe(0);
  expect(r.stderr).toBe(
    'wrote .sync.schema.json; add to .sync.yml: # yaml-language-server: $schema=.sync.schema.json\n',
  );
});
