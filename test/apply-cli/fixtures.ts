/** A small template repository and projects for the apply CLI tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { templates } from '../cli/cli-helpers.js';
import type { Tree } from '../helpers/fs.js';

/** `base` (always applied: a rendered file, a copied file, an init file) and `extra` (opt-in). */
export function repoTree(overrides: { version?: string; config?: string } = {}): Tree {
  return templates('', {
    base: {
      'template.json': {
        version: overrides.version ?? '1.0.0',
        always_apply: true,
        default_settings: { greeting: 'hello', items: ['a'] },
      },
      'files/config.txt.epp':
        overrides.config ??
        '<%- | String $greeting, Array $items | -%>\n# config\ngreeting = <%= $greeting %>\nline 2\nline 3\nline 4\nline 5\nitems = <%= $items.join(",") %>\n',
      'files/static.txt': 'static\n',
      'files_init/README.md.epp': "# <%= $project['name'] %>\n",
    },
    extra: {
      'template.json': { version: '1.0.0', default_settings: {} },
      'files/extra/extra.txt': 'extra\n',
    },
  });
}

/** A `.sync.yml` using the filesystem repository at `repo`, with extra YAML appended. */
export function syncYml(repo: string, more = '', templatesList = '[]'): string {
  return `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ${repo}
  templates: ${templatesList}
${more}`;
}

export function read(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

export const lockText = (root: string): string => read(root, '.pantograph.lock');
