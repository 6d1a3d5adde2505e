/**
 * The README's "Template author's guide" examples work as written: its `template.json` (every key it
 * documents) and its Puppet hook, in a template repository run through the authors' commands of "For
 * template authors" and applied to a project (the built command, as an author runs it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function pantograph(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The code block of `lang` that follows `after` in the README. */
function blockAfter(after: string, lang: string): string {
  const at = README.indexOf(after);
  expect(at, after).toBeGreaterThanOrEqual(0);
  const open = README.indexOf(`\`\`\`${lang}\n`, at);
  const close = README.indexOf('\n```', open);
  return README.slice(open + lang.length + 4, close + 1);
}

describe("the README's template author's guide", () => {
  const manifest = blockAfter('`template.json`:\n', 'json');
  const hook = blockAfter('is an error, `HOOK_INVALID_STATE`, not dropped silently', 'puppet');

  it('shows every template.json key the guide documents in its example', () => {
    const keys = Object.keys(JSON.parse(manifest) as object);
    const guide = README.slice(README.indexOf('## Template author'), README.indexOf('### Files'));
    const documented = [
      ...new Set([...guide.matchAll(/`(v1_\w+|delimiters|default_settings|tags)`/g)].map((m) => m[1]!)),
    ];
    for (const key of documented) expect(keys, key).toContain(key);
  });

  it('has a template.json and a hook that docs, test, epp validate and a project take as written', () => {
    const repo = tempTree({
      'my_template/template.json': manifest,
      'my_template/hooks/after_project_settings.pp': hook,
      // Its delimiters are `[%` and `%]`.
      'my_template/files/my_tool.yml.epp': 'port: [%= $port %]\n',
      'my_template/tests/basic/.sync.yml': 'pdk_template:\n  version: 2\n  templates: [my_template]\n',
      'my_template/tests/basic/expected/my_tool.yml': 'port: 8080\n',
      // The publisher of the shared setting the example subscribes to.
      'gems/template.json': JSON.stringify({
        name: 'gems',
        always_apply: true,
        shared_settings: { gems: { description: 'Gems.', value: ['rake'] } },
      }),
    });
    for (const args of [['docs'], ['docs', '--check'], ['test'], ['epp', 'validate', '.']]) {
      const r = pantograph(repo, ...args);
      expect([args, r.code, r.stderr]).toEqual([args, 0, '']);
    }
    const project = writeTree(tempDir(), {
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [my_template]\nmy_template:\n  hosts: [a.example.com]\n`,
    });
    const r = pantograph(project, 'apply');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readFileSync(join(project, 'my_tool.yml'), 'utf8')).toBe('port: 8080\n');
  });
});
