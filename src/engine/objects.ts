/**
 * `pantograph new class|defined_type|task|fact|function|provider|transport|test <name>`: a new object in the
 * module (the working directory's, or the one it is in) and its tests, as PDK's `pdk new` makes them (same names, same paths, the same bytes as
 * pdk-templates' object templates). Names are checked in object-names.ts, the files of each kind are
 * listed in object-targets.ts; here the texts are rendered and written. The text of each file comes from
 * `object_templates/<template>.epp` of the project's first trusted template source that has it, else from
 * the default repository. Nothing is written when any target exists already.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compileEpp } from '../epp/index.js';
import { EngineError } from './errors.js';
import { findModule, type ObjectKind } from './object-names.js';
import { type ObjectOptions, planObject } from './object-targets.js';
import type { ProjectOptions } from './project.js';
import { loadSyncConfig, SYNC_FILE } from './project-config.js';
import { bundledTemplatesDir, resolveSources } from './sources/index.js';

export { OBJECT_KINDS, type ObjectKind } from './object-names.js';
export type { ObjectOptions } from './object-targets.js';

export interface NewObject {
  /** The module's root (the nearest directory with a metadata.json). */
  readonly root: string;
  /** The full name (`<module>::<name>` for classes, defined types, functions and tasks). */
  readonly name: string;
  /** What was made, for messages: `class`, `defined type`, `unit test for class`... */
  readonly label: string;
  /** Project-relative paths written, the object first, its tests after. */
  readonly files: readonly string[];
}

export async function createObject(
  dir: string,
  kind: ObjectKind,
  given: string,
  options: ProjectOptions & ObjectOptions = {},
): Promise<NewObject> {
  const { root, module } = findModule(dir);
  const plan = planObject(root, module, kind, given, options);
  for (const { path } of plan.files) {
    if (present(join(root, path))) {
      throw new EngineError(
        'OBJECT_EXISTS',
        `cannot create ${plan.label} '${plan.name}': ${path} already exists`,
        { hint: 'choose another name, or remove the file first; nothing was written' },
      );
    }
  }
  const dirs = plan.files.some((f) => f.template) ? await objectTemplateDirs(root, options) : [];
  const rendered = plan.files.map((f) => ({
    path: f.path,
    text: pdkWritten(f.template ? render(dirs, f.template, f.values ?? {}) : (f.text ?? '')),
  }));
  for (const { path, text } of rendered) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text, { flag: 'wx' }); // never over a file that appeared meanwhile
  }
  return { root, name: plan.name, label: plan.label, files: rendered.map((r) => r.path) };
}

/**
 * `object_templates/<template>` from the first folder that has it, given the values it declares (all of
 * them when it declares none), so a source's own template may take fewer than PDK passes.
 */
function render(dirs: readonly string[], template: string, values: Readonly<Record<string, string>>): string {
  const file = dirs.map((d) => join(d, template)).find((f) => existsSync(f));
  if (!file) {
    throw new EngineError('OBJECT_TEMPLATE', `no template source has object_templates/${template}`, {
      hint: 'the default repository has it: check PANTOGRAPH_DEFAULT_SOURCE, or add the file to your source',
    });
  }
  const compiled = compileEpp(readFileSync(file, 'utf8'), { file });
  const declared = compiled.parameters;
  const given = declared
    ? Object.fromEntries(declared.filter((p) => p.name in values).map((p) => [p.name, values[p.name]]))
    : values;
  return compiled.render(given);
}

/** Anything at `path`, a dangling symbolic link included. */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** As PDK's `write_file` leaves a text: Unix line breaks, ending with one. */
function pdkWritten(text: string): string {
  const unix = text.replace(/\r\n?/g, '\n');
  return unix.endsWith('\n') ? unix : `${unix}\n`;
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
