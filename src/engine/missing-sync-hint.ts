/**
 * The hint of a missing `.sync.yml`. An author who runs a project's command (`validate`, `status`,
 * `apply`) in a template repository is not in a project that lacks `pantograph init`: the hint names the
 * commands that check a template repository instead. A module developer in `manifests/` or `spec/` is
 * inside a project: the hint names it, rather than offering `init` there.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { SYNC_FILE } from '../shared/project-files.js';

/** How many template names the hint lists before "...". */
const NAMES_SHOWN = 3;

export function missingSyncHint(dir: string): string {
  const templates = templatesIn(dir);
  if (templates.length === 0) {
    const project = projectAbove(dir);
    if (project === undefined)
      return 'run `pantograph init` to create one, or point at the project with -C DIR';
    return `this is inside the project ${project}: run there, or point at it with -C ${relative(dir, project)}`;
  }
  const names =
    templates.length > NAMES_SHOWN
      ? `${templates.slice(0, NAMES_SHOWN).join(', ')}, ...`
      : templates.join(', ');
  return (
    `this is a template repository (${names}), not a project: check it with \`pantograph test\` and ` +
    '`pantograph docs --check` run in it (or with -C DIR), `pantograph ui` for its author view; a project ' +
    'uses it as a `template_sources` entry'
  );
}

/** The directories of `dir` with a `template.json`: the templates of a template repository. */
function templatesIn(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name);
  } catch {
    return [];
  }
  return entries.filter((name) => existsSync(join(dir, name, 'template.json'))).sort();
}

/** The nearest directory above `dir` with a `.sync.yml` (commands do not look up on their own: `-C`). */
export function projectAbove(dir: string): string | undefined {
  for (let at = dirname(dir); ; at = dirname(at)) {
    if (existsSync(join(at, SYNC_FILE))) return at;
    if (dirname(at) === at) return undefined;
  }
}
