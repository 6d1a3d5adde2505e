/**
 * `pantograph new class|defined_type <name>`: a new Puppet object in a module and its unit test, as PDK's
 * `pdk new class` makes them (same names, same paths, the same bytes as pdk-templates' object templates).
 * The text comes from `object_templates/<kind>.epp` and `<kind>_spec.epp` of the project's first trusted
 * template source that has them, else from the default repository. Nothing is written when any target
 * exists already.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderEpp } from '../epp/index.js';
import { EngineError } from './errors.js';
import type { ProjectOptions } from './project.js';
import { loadSyncConfig, SYNC_FILE } from './project-config.js';
import { bundledTemplatesDir, resolveSources } from './sources/index.js';

export type ObjectKind = 'class' | 'defined_type';

export const OBJECT_KINDS: readonly ObjectKind[] = ['class', 'defined_type'];

export interface NewObject {
  /** The full name, `<module>::<name>` (or the module's own name for its main class). */
  readonly name: string;
  /** Project-relative paths written, manifest first. */
  readonly files: readonly string[];
}

const NAME = /^([a-z][a-z0-9_]*)(::[a-z][a-z0-9_]*)*$/;
const SPEC_DIR: Record<ObjectKind, string> = { class: 'classes', defined_type: 'defines' };
const WHAT: Record<ObjectKind, string> = { class: 'class', defined_type: 'defined type' };

export async function createObject(
  dir: string,
  kind: ObjectKind,
  given: string,
  options: ProjectOptions = {},
): Promise<NewObject> {
  const root = resolve(dir);
  const module = moduleName(root);
  if (!NAME.test(given) || given.split('::').at(-1) === 'init') {
    throw new EngineError('OBJECT_NAME', `'${given}' is not a valid ${WHAT[kind]} name`, {
      hint: "lower-case letters, digits and underscores, starting with a letter, parts joined by '::' (not ending in 'init')",
    });
  }
  const name = given.split('::')[0] === module ? given : `${module}::${given}`;
  const parts = name.split('::').slice(1);
  const specParts = parts.length > 0 ? parts : [module];
  const targets: [template: string, path: string][] = [
    [`${kind}.epp`, `manifests/${(parts.length > 0 ? parts : ['init']).join('/')}.pp`],
    [`${kind}_spec.epp`, `spec/${SPEC_DIR[kind]}/${specParts.join('/')}_spec.rb`],
  ];
  for (const [, path] of targets) {
    if (existsSync(join(root, path))) {
      throw new EngineError(
        'OBJECT_EXISTS',
        `cannot create ${WHAT[kind]} '${name}': ${path} already exists`,
        {
          hint: 'choose another name, or remove the file first; nothing was written',
        },
      );
    }
  }
  const dirs = await objectTemplateDirs(root, options);
  const rendered = targets.map(([template, path]) => {
    const file = dirs.map((d) => join(d, template)).find((f) => existsSync(f));
    if (!file) {
      throw new EngineError('OBJECT_TEMPLATE', `no template source has object_templates/${template}`, {
        hint: 'the default repository has it: check PANTOGRAPH_DEFAULT_SOURCE, or add the file to your source',
      });
    }
    return { path, text: renderEpp(readFileSync(file, 'utf8'), { name }, { file }) };
  });
  for (const { path, text } of rendered) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text, { flag: 'wx' }); // never over a file that appeared meanwhile
  }
  return { name, files: rendered.map((r) => r.path) };
}

/** `metadata.json`'s name without its author (`acme-ntp` -> `ntp`), as PDK takes it. */
function moduleName(root: string): string {
  let metadata: { name?: unknown };
  try {
    metadata = JSON.parse(readFileSync(join(root, 'metadata.json'), 'utf8')) as { name?: unknown };
  } catch (e) {
    throw new EngineError('OBJECT_NOT_MODULE', `${root} is not a module: ${(e as Error).message}`, {
      hint: 'run it in a module (one with a metadata.json), or create one with `pantograph init`',
    });
  }
  if (typeof metadata.name !== 'string' || metadata.name === '') {
    throw new EngineError('OBJECT_NOT_MODULE', `metadata.json in ${root} has no name`, {
      position: { file: join(root, 'metadata.json'), line: 1, column: 1 },
      hint: 'give it "name": "author-module"',
    });
  }
  return metadata.name.slice(metadata.name.lastIndexOf('-') + 1).replace(/^.*\//, '');
}

/**
 * The `object_templates/` folders to look in, in order: the project's trusted sources (an untrusted one's
 * templates would render here without the sandbox's limits), then the default repository's.
 */
async function objectTemplateDirs(root: string, options: ProjectOptions): Promise<string[]> {
  const dirs: string[] = [];
  if (existsSync(join(root, SYNC_FILE))) {
    const config = loadSyncConfig(root);
    const sources = await resolveSources(config.sources, {
      root,
      ...(options.offline !== undefined ? { offline: options.offline } : {}),
      ...(options.trust !== undefined ? { trust: options.trust } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
    for (const s of sources) if (s.trusted) dirs.push(join(s.dir, 'object_templates'));
  }
  dirs.push(join(bundledTemplatesDir(), 'object_templates'));
  return dirs;
}
