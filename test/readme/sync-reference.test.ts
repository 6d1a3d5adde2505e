/**
 * The README's `.sync.yml` reference says what it shows: its `templates:` line, applied to the bundled
 * templates, validates without a warning (its `---name` excludes a template that is always applied).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { METADATA, run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The `templates:` line of the first YAML block after the reference's heading. */
function referenceTemplatesLine(): string {
  const section = README.slice(README.indexOf('## The `.sync.yml` reference'));
  const block = section.slice(
    section.indexOf('```yaml'),
    section.indexOf('```', section.indexOf('```yaml') + 7),
  );
  const line = block.split('\n').find((l) => l.trimStart().startsWith('templates:'));
  if (!line) throw new Error("no templates: line in the README's .sync.yml reference");
  return line.trim();
}

it("the reference's templates line validates cleanly against the bundled templates", async () => {
  const line = referenceTemplatesLine();
  expect(line).toMatch(/---\w+/);
  const root = tempTree({
    '.sync.yml': `pdk_template:\n  version: 2\n  ${line}\n`,
    'metadata.json': METADATA,
  });
  const r = await run(root, 'validate');
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/: 0 errors, 0 warnings\n$/);
  expect(r.code).toBe(0);
});
