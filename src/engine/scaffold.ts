/**
 * `pantograph new template <name>`: a template skeleton with the layout of DESIGN section 3 — template.json,
 * its settings schema, an example file with a typed parameter calling a partial, a generated README and a
 * first test whose expected output is produced by the engine itself, so it passes from the start.
 *
 * No `hooks/` and no `files_init/` are created: a hook runs whenever its file exists and every file under
 * `files_init/` is output, so placeholders there would change what the template does. The README says how
 * to add them.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { generateReadmes } from './docs.js';
import { EngineError } from './errors.js';
import type { ProjectOptions } from './project.js';
import { TEMPLATE_NAME } from './sources/index.js';
import { loadRepository } from './template-repository.js';
import { runCase } from './template-tests.js';

export interface ScaffoldResult {
  /** Absolute template directory. */
  readonly dir: string;
  /** Created files, relative to the template directory, sorted. */
  readonly files: readonly string[];
}

/**
 * A project (a module: `.sync.yml` or `metadata.json`) is no template repository: run there, `new template`
 * put the template among the module's own files, where its next steps made `docs` and `test` take the module
 * for a repository. A project that already keeps templates beside its files (`location: .`) is one too.
 */
function refuseProject(repo: string): void {
  const marker = ['.sync.yml', 'metadata.json'].find((name) => existsSync(join(repo, name)));
  if (marker === undefined) return;
  if (readdirSync(repo).some((name) => existsSync(join(repo, name, 'template.json')))) return;
  throw new EngineError(
    'AUTHOR_NO_REPOSITORY',
    `${repo} is a project (it has ${marker}), not a template repository`,
    {
      hint: 'create the template in a template repository: -C DIR (made when missing), e.g. `pantograph new template NAME -C ../my-templates`; in a module, `pantograph new class NAME` (and the other kinds) makes Puppet code',
    },
  );
}

/** Creates `<repoDir>/<name>/`; refuses a name that is not snake_case or a directory that exists. */
export async function createTemplate(
  repoDir: string,
  name: string,
  options: ProjectOptions = {},
): Promise<ScaffoldResult> {
  if (!TEMPLATE_NAME.test(name)) {
    throw new EngineError('AUTHOR_NAME', `'${name}' is not a valid template name`, {
      hint: `use snake_case: lower-case letters, digits and underscores, starting with a letter (e.g. '${suggestName(name)}')`,
    });
  }
  const repo = resolve(repoDir);
  // Run in a template's own directory (-C my-templates/ci): the new one would be nested in it, where
  // neither `test` nor `docs` nor a project finds it.
  if (existsSync(join(repo, 'template.json'))) {
    throw new EngineError(
      'AUTHOR_NO_REPOSITORY',
      `${repo} is the template '${basename(repo)}' (it has a template.json), not a template repository`,
      { hint: `create the new template beside it, in its repository: -C ${dirname(repo)}` },
    );
  }
  refuseProject(repo);
  const dir = join(repo, name);
  if (existsSync(dir)) {
    throw new EngineError('AUTHOR_EXISTS', `${dir} already exists`, {
      hint: 'choose another name, or remove the directory first',
    });
  }
  mkdirSync(repo, { recursive: true });
  const others = loadRepository(repo).templates.filter((t) => t.manifest.always_apply);
  const files: Record<string, string> = {
    'template.json': `${JSON.stringify(manifest(name), null, 2)}\n`,
    'template_schema.json': `${JSON.stringify(schema(name), null, 2)}\n`,
    'files/example.epp': EXAMPLE,
    'partials/signature.epp': SIGNATURE,
    'tests/basic/.sync.yml': testSync(
      name,
      others.map((t) => t.name),
    ),
  };
  try {
    for (const [rel, text] of Object.entries(files)) {
      const path = join(dir, rel);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
    }
    const repository = loadRepository(repo, [name]);
    const errors = repository.problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) {
      throw new EngineError('AUTHOR_NAME', `the new template '${name}' does not load`, { problems: errors });
    }
    generateReadmes(repository);
    const result = await runCase(repository.dir, repository.templates[0]!, 'basic', {
      ...options,
      update: true,
    });
    if (result.status === 'failed') {
      throw new EngineError('AUTHOR_NAME', `the first test of '${name}' does not plan`, {
        problems: result.problems,
      });
    }
  } catch (e) {
    // Leave nothing half made behind.
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    files: [...Object.keys(files), 'README.md', 'tests/basic/expected/example'].sort(),
  };
}

/** `My-Template` -> `my_template`. */
function suggestName(name: string): string {
  const s = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '');
  return s === '' ? 'my_template' : s;
}

function manifest(name: string): Record<string, unknown> {
  return {
    name,
    description: `Describe what ${name} manages and why a project wants it.`,
    version: '0.1.0',
    tags: [],
    default_settings: { greeting: 'Hello', extra_lines: [] },
  };
}

function schema(name: string): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `Settings of the ${name} template`,
    type: 'object',
    properties: {
      greeting: {
        type: 'string',
        minLength: 1,
        description: 'The first word of the example file.',
      },
      extra_lines: {
        type: 'array',
        items: { type: 'string' },
        description: 'Lines added at the end of the example file.',
      },
    },
  };
}

const EXAMPLE = `<%- |
  String[1]     $greeting,
  Array[String] $extra_lines = [],
| -%>
<%# Rendered into the project as \`example\` (the .epp suffix is dropped). The parameters are filled from
    this template's settings; $project, $metadata, $template and $settings are visible too. -%>
<%= $greeting %>, <%= $project['name'] %>!
<% $extra_lines.each |$line| { -%>
<%= $line %>
<% } -%>
<%= epp('partials/signature.epp', { 'owner' => $template['name'] }) -%>
`;

const SIGNATURE = `<%- | String $owner | -%>
-- managed by the <%= $owner %> template; edit .sync.yml, not this file
`;

function testSync(name: string, alwaysApplied: readonly string[]): string {
  const lines = [
    `# The ${name} template with its default settings. \`pantograph test ${name}\` plans this project with the`,
    '# template repository as its only source and compares the output with expected/.',
    'pdk_template:',
    '  version: 2',
    '  templates:',
    `    - ${name}`,
  ];
  if (alwaysApplied.length > 0) {
    lines.push('    # the always-applied templates of this repository are left out of this test');
    for (const other of alwaysApplied) lines.push(`    - "---${other}"`);
  }
  return `${lines.join('\n')}\n`;
}
