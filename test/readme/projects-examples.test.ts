/**
 * The README's "Projects and template repositories" shows `.sync.yml` as a new user copies it: each YAML
 * example there, in a project of the bundled templates, validates without an error or a warning (a
 * knockout that matches no inherited item is a warning: the example would show what does nothing).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { METADATA, run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The ```yaml blocks of the section. */
function sectionYamlBlocks(): string[] {
  const start = README.indexOf('## Projects and template repositories');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

it('has two YAML examples: a .sync.yml, and knockouts with !replace', () => {
  const blocks = sectionYamlBlocks();
  expect(blocks).toHaveLength(2);
  expect(blocks[0]).toMatch(/^pdk_template:/);
  expect(blocks[1]).toMatch(/\[---/);
  expect(blocks[1]).toContain('!replace');
});

it.each(
  sectionYamlBlocks().map((b, i) => [i + 1, b]),
)('example %i validates without a warning', async (_, block) => {
  const text = block.startsWith('pdk_template:') ? block : `pdk_template:\n  version: 2\n${block}`;
  const root = tempTree({ '.sync.yml': text, 'metadata.json': METADATA });
  const r = await run(root, 'validate');
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/: 0 errors, 0 warnings\n$/);
  expect(r.code).toBe(0);
});
