/**
 * The Puppet module a file belongs to, for checking its templates as `puppet epp render --modulepath` would
 * render them (the language server): the module's own type aliases (`Redis::LogLevel`) and functions
 * written in Puppet (`redis::format()`), and those of the modules beside it.
 *
 * A module is the nearest directory above the file holding a `metadata.json` with a `name`
 * (`puppet-redis` or `puppet/redis`: the module is `redis`, whatever its checkout is called). Its module
 * path, searched in this order:
 * - the module itself, by that name;
 * - `spec/fixtures/modules/`, where `pdk test unit` (puppetlabs_spec_helper) puts the modules it depends on;
 * - the directory holding the module: the other modules of a control repository's `site/` or `modules/`.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { ModulePathEntry } from '../epp/index.js';
import { MODULE_NAME, ModulePath } from '../epp/module-path.js';
import { type ReadText, readDisk } from './read-text.js';

export interface ModuleContext {
  /** The module's name (`redis`). */
  readonly name: string;
  /** Its root, where `metadata.json` is. */
  readonly dir: string;
  /** Where its templates' types, functions and `epp('module/...')` templates are found. */
  readonly modulePath: readonly ModulePathEntry[];
}

/** The module `file` is in, or undefined: no `metadata.json` above it, or one without a module's name. */
export function moduleContextOf(file: string, read: ReadText = readDisk): ModuleContext | undefined {
  for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
    const text = read(join(dir, 'metadata.json'));
    if (text === undefined) continue;
    const name = moduleNameOf(text);
    if (name === undefined) return undefined;
    return {
      name,
      dir,
      modulePath: [{ name, dir }, join(dir, 'spec', 'fixtures', 'modules'), dirname(dir)],
    };
  }
  return undefined;
}

/** `puppetlabs-apache` -> `apache`; undefined unless the text is a JSON object with such a name. */
function moduleNameOf(metadataText: string): string | undefined {
  let metadata: unknown;
  try {
    metadata = JSON.parse(metadataText);
  } catch {
    return undefined;
  }
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const full = (metadata as { name?: unknown }).name;
  if (typeof full !== 'string') return undefined;
  const name = moduleShortName(full);
  return MODULE_NAME.test(name) ? name : undefined;
}

/** The module's name in a metadata.json `name`: `puppetlabs-apache` and `puppetlabs/apache` are `apache`. */
export function moduleShortName(fullName: string): string {
  return fullName.slice(Math.max(fullName.lastIndexOf('-'), fullName.lastIndexOf('/')) + 1);
}

/**
 * The file a name in a module's template leads to, for an editor's go-to-definition: a type alias
 * (`Redis::LogLevel`), a function written in Puppet (`redis::format`) or a module's template
 * (`epp('redis/x.epp')`), found on the module's path; undefined when none is there.
 */
export function moduleDefinitionOf(
  module: ModuleContext,
  kind: 'type' | 'function' | 'template-path',
  name: string,
): string | undefined {
  const path = ModulePath.of(module.modulePath);
  if (kind === 'template-path') return path.templateFile(name);
  return path.definitionFile(kind === 'type' ? 'types' : 'functions', name);
}

/** At most this many files of a module's `types/` and `functions/` are read and offered (a module has tens). */
const MAX_NAMES = 500;

/**
 * The type aliases and Puppet functions of the module itself, for an editor's completion: `Redis::LogLevel`
 * (as its file declares it: Puppet's names ignore case, editors do not) and `redis::format`.
 */
export function moduleNamesOf(
  module: ModuleContext,
  read: ReadText,
): { readonly types: string[]; readonly functions: string[] } {
  const types = ppFiles(join(module.dir, 'types')).map((file) => {
    const path = relative(join(module.dir, 'types'), file).slice(0, -3).split(sep);
    const guessed = [module.name, ...path].map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join('::');
    const declared = /^[ \t]*type[ \t]+([A-Z][\w:]*)/m.exec(read(file) ?? '')?.[1];
    return declared?.toLowerCase() === guessed.toLowerCase() ? declared : guessed;
  });
  const functions = ppFiles(join(module.dir, 'functions')).map((file) =>
    [module.name, ...relative(join(module.dir, 'functions'), file).slice(0, -3).split(sep)].join('::'),
  );
  return { types, functions };
}

/**
 * The `.pp` files under `dir` (none when it does not exist), at most {@link MAX_NAMES}: regular files
 * only, as a symlink could lead out of the module (the module path refuses those too).
 */
function ppFiles(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.pp'))
    .slice(0, MAX_NAMES)
    .map((entry) => join(entry.parentPath, entry.name));
}
