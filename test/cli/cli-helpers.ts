/**
 * Shared by the CLI tests: run `main` against a project directory and capture what it printed, and
 * small template repositories built inline.
 */
import { fileURLToPath } from 'node:url';
import { memoryIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import type { Tree } from '../helpers/fs.js';

/** Engine B's example template repository. */
export const EXAMPLE_REPO = fileURLToPath(new URL('../fixtures/example-repo', import.meta.url));

/** The example composition: shared array, always_apply, `---` exclusion, knockout and `!replace`. */
export function exampleSync(location = EXAMPLE_REPO): string {
  return `# The example project
pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ${location}
  templates: [gemfile, github_actions, puppet_lint, scripts, motd, ---vscode]
  shared_settings:
    lint_plugins: [puppet-lint-param-docs]
puppet_lint:
  extra_plugins: [puppet-lint-unquoted_string-check]
gemfile:
  optional_gems: [pry]
  required_gems: [---rspec-puppet]
pdkignore:
  paths: [---/spec/, /pkg/]
github_actions:
  ruby_versions: !replace ['3.3']
`;
}

export const METADATA = '{"name": "acme-widget", "version": "1.0.0"}';

export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `pantograph ...args` with `cwd` as the working directory. */
export async function run(cwd: string, ...args: string[]): Promise<Run> {
  const io = memoryIo(cwd);
  const code = await main(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

/** {@link run} on a terminal `columns` wide: its prose folded there (src/cli/wrap.ts). */
export async function runAtWidth(columns: number, cwd: string, ...args: string[]): Promise<Run> {
  const mem = memoryIo(cwd);
  const code = await main(args, { ...mem, widths: { out: columns, err: columns } });
  return { code, stdout: mem.stdout, stderr: mem.stderr };
}

/** `pantograph ... --format json`, parsed. */
export async function runJson<T = Record<string, unknown>>(
  cwd: string,
  ...args: string[]
): Promise<{ code: number; json: T; stderr: string }> {
  const r = await run(cwd, ...args, '--format', 'json');
  return { code: r.code, json: JSON.parse(r.stdout) as T, stderr: r.stderr };
}

/** Template repository files under `prefix/`: name -> files (`template.json` given as an object). */
export function templates(prefix: string, defs: Record<string, Record<string, string | object>>): Tree {
  const tree: Tree = {};
  for (const [name, files] of Object.entries(defs)) {
    for (const [path, content] of Object.entries(files)) {
      tree[`${prefix}/${name}/${path}`] =
        typeof content === 'string' ? content : JSON.stringify({ name, ...content }, null, 2);
    }
  }
  return tree;
}
