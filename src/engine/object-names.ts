/**
 * Names for `pantograph new <kind>`: the module's own name, and the rules PDK's `OptionValidator` applies to
 * each kind's name (lib/pdk/cli/util/option_validator.rb), with the errors that say what to type instead.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EngineError } from './errors.js';
import { parseJsonData } from './json-data.js';
import type { Position } from './model.js';
import { moduleShortName } from './module-context.js';
import { jsonPointer } from './yaml-data.js';

export type ObjectKind =
  | 'class'
  | 'defined_type'
  | 'task'
  | 'fact'
  | 'function'
  | 'provider'
  | 'transport'
  | 'test';

export const OBJECT_KINDS: readonly ObjectKind[] = [
  'class',
  'defined_type',
  'task',
  'fact',
  'function',
  'provider',
  'transport',
  'test',
];

/** How a kind is called in messages. */
export const WHAT: Record<ObjectKind, string> = {
  class: 'class',
  defined_type: 'defined type',
  task: 'task',
  fact: 'fact',
  function: 'function',
  provider: 'provider',
  transport: 'transport',
  test: 'unit test',
};

/** PDK's `valid_namespace?`: classes, defined types and functions (`a`, `a::b`, not ending in `init`). */
const NAMESPACE = /^([a-z][a-z0-9_]*)(::[a-z][a-z0-9_]*)*$/;
/** PDK's `valid_module_name?`: tasks, providers and transports (one word). */
const WORD = /^[a-z][a-z0-9_]*$/;
/**
 * Facts: PDK takes any name of two characters or more, which then becomes a file name under lib/facter/ and
 * a Ruby symbol; we take the names for which both are plain (`../x` or `a b` would not be).
 */
const FACT = /^[A-Za-z_][A-Za-z0-9_]+$/;

const NAMESPACE_HINT =
  "lower-case letters, digits and underscores, starting with a letter, parts joined by '::' (not ending in 'init')";
const WORD_HINT = "one word of lower-case letters, digits and underscores, starting with a letter (no '::')";

const RULES: Record<ObjectKind, { test: (name: string) => boolean; hint: string }> = {
  class: { test: isNamespace, hint: NAMESPACE_HINT },
  defined_type: { test: isNamespace, hint: NAMESPACE_HINT },
  function: { test: isNamespace, hint: NAMESPACE_HINT },
  test: {
    test: isNamespace,
    hint: `the name of a class or defined type of the module: ${NAMESPACE_HINT}`,
  },
  task: {
    test: (n) => WORD.test(n),
    hint: `${WORD_HINT}; the task is then called <module>::<name>, or <module> for the module's own name`,
  },
  provider: { test: (n) => WORD.test(n), hint: `${WORD_HINT}: it is the name of the resource type` },
  transport: { test: (n) => WORD.test(n), hint: WORD_HINT },
  fact: {
    test: (n) => FACT.test(n),
    hint: 'two or more letters, digits and underscores, not starting with a digit (it names lib/facter/<name>.rb)',
  },
};

function isNamespace(name: string): boolean {
  return NAMESPACE.test(name) && name.split('::').at(-1) !== 'init';
}

/** Refuses a name PDK would refuse for this kind (and the few it takes that would make bad file names). */
export function checkName(kind: ObjectKind, name: string): void {
  const rule = RULES[kind];
  if (!rule.test(name)) {
    const what = kind === 'test' ? 'class or defined type' : WHAT[kind];
    throw new EngineError('OBJECT_NAME', `'${name}' is not a valid ${what} name`, { hint: rule.hint });
  }
}

/** `name` in the module's namespace, as PDK qualifies classes, defined types and functions. */
export function qualified(module: string, name: string): string {
  return name.split('::')[0] === module ? name : `${module}::${name}`;
}

/**
 * The module `dir` is in, as PDK finds it: the nearest directory holding a `metadata.json`, `dir` or above
 * (so `new` works from `manifests/` too); and its name without its author (`acme-ntp` -> `ntp`).
 */
export function findModule(dir: string): {
  root: string;
  module: string;
  metadata: Readonly<Record<string, unknown>>;
} {
  let root = resolve(dir);
  while (!existsSync(join(root, 'metadata.json'))) {
    const parent = dirname(root);
    if (parent === root) {
      throw new EngineError(
        'OBJECT_NOT_MODULE',
        `${resolve(dir)} is not in a module: no metadata.json there or above`,
        { hint: 'run it in a module (one with a metadata.json), or create one with `pantograph init`' },
      );
    }
    root = parent;
  }
  const metadata = readModuleMetadata(root);
  return { root, module: moduleName(root, metadata), metadata };
}

/** The kinds whose files carry the module's name (`<module>::<name>`, `lib/puppet/functions/<module>/`). */
const NAMES_THE_MODULE: ReadonlySet<ObjectKind> = new Set([
  'class',
  'defined_type',
  'function',
  'task',
  'test',
]);

/**
 * Refuses a metadata.json name that would put a name Puppet refuses into the files: PDK's `validate_name`
 * (lib/pdk/module/metadata.rb), with its messages, but case-sensitive. PDK's test ignores case, takes
 * `acme-Ntp` and writes `class Ntp::config`, which Puppet does not parse ("Illegal class reference").
 */
export function checkModuleName(
  root: string,
  metadata: Readonly<Record<string, unknown>>,
  kind: ObjectKind,
  given: string,
): void {
  const name = metadata.name;
  if (!NAMES_THE_MODULE.has(kind) || typeof name !== 'string') return;
  if (/^[a-z0-9]+[-/][a-z][a-z0-9_]*$/.test(name)) return;
  const [namespace = '', module] = splitOnce(name);
  let why: string;
  let hint =
    'write it as "author-module": lower-case letters, digits and underscores, the module starting with a letter';
  if (module === undefined || module === '' || namespace === '')
    why = 'Field must be a dash-separated user name and module name.';
  else if (/[^a-z0-9_]/i.test(module))
    why = 'Module name must contain only alphanumeric or underscore characters.';
  else if (/^[^a-z]/i.test(module)) why = 'Module name must begin with a letter.';
  else if (/[^a-z0-9]/i.test(namespace)) why = 'Namespace must contain only alphanumeric characters.';
  else {
    const lower = `${namespace.toLowerCase()}-${module.toLowerCase()}`;
    why = `Puppet module names are lower case: PDK takes this one and writes names such as '${qualified(module, given)}', which Puppet refuses ("Illegal class reference")`;
    hint = `rename the module in metadata.json: "name": "${lower}"`;
  }
  const file = join(root, 'metadata.json');
  throw new EngineError('OBJECT_MODULE_NAME', `invalid 'name' field in metadata.json: '${name}': ${why}`, {
    position: valuePosition(file, 'name'),
    hint: `${hint}; nothing was written`,
  });
}

/** Ruby's `name.split(/[-\/]/, 2)`. */
function splitOnce(name: string): [string, string?] {
  const at = name.search(/[-/]/);
  return at < 0 ? [name] : [name.slice(0, at), name.slice(at + 1)];
}

function valuePosition(file: string, key: string): Position {
  try {
    return parseJsonData(readFileSync(file, 'utf8'), file, 'OBJECT_MODULE_NAME').positions.positionOf(
      jsonPointer([key]),
    );
  } catch {
    return { file, line: 1, column: 1 };
  }
}

function readModuleMetadata(root: string): Record<string, unknown> {
  const file = join(root, 'metadata.json');
  const hint =
    'fix it (a JSON object with "name": "author-module"), or create a module with `pantograph init`';
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const reason =
      (e as NodeJS.ErrnoException).code === 'EISDIR' ? 'it is a directory' : (e as Error).message;
    throw new EngineError('OBJECT_NOT_MODULE', `cannot read ${file}: ${reason}`, { hint });
  }
  let metadata: unknown;
  try {
    metadata = JSON.parse(text);
  } catch {
    // JSON.parse names an offset at best: the strict reader says where, as line and column.
    const mistake = parseJsonData(text, file, 'OBJECT_NOT_MODULE').problems[0];
    throw new EngineError('OBJECT_NOT_MODULE', `cannot read ${file}: ${mistake?.message ?? 'invalid JSON'}`, {
      position: { file, line: mistake?.line ?? 1, column: mistake?.column ?? 1 },
      hint,
    });
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new EngineError('OBJECT_NOT_MODULE', `metadata.json in ${root} is not a JSON object`, {
      position: { file, line: 1, column: 1 },
      hint,
    });
  }
  return metadata as Record<string, unknown>;
}

function moduleName(root: string, metadata: Readonly<Record<string, unknown>>): string {
  const file = join(root, 'metadata.json');
  if (metadata.name === undefined) {
    throw new EngineError('OBJECT_NOT_MODULE', `metadata.json in ${root} has no name`, {
      position: { file, line: 1, column: 1 },
      hint: 'give it "name": "author-module"',
    });
  }
  if (typeof metadata.name !== 'string' || metadata.name === '') {
    // A name that is there but is no module name is said at its value, not as a missing key.
    const given = metadata.name === '' ? 'empty' : `${JSON.stringify(metadata.name)}, not a string`;
    throw new EngineError('OBJECT_NOT_MODULE', `the 'name' of metadata.json in ${root} is ${given}`, {
      position: valuePosition(file, 'name'),
      hint: 'write it as "name": "author-module"',
    });
  }
  return moduleShortName(metadata.name);
}

/** PDK's `class_name_from_object_name`: `my_type` -> `MyType` (Ruby's `capitalize` on each part). */
export function rubyClassName(name: string): string {
  return name
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('');
}
