/**
 * A module path, as Puppet's `--modulepath`: directories holding modules by name (`<dir>/redis/`). What a
 * module's templates use of their module, and of the modules beside it: type aliases
 * (`Redis::LogLevel` is `<dir>/redis/types/loglevel.pp`), functions written in Puppet
 * (`collectd::indent()` is `<dir>/collectd/functions/indent.pp`) and templates
 * (`epp('apache/mod/_require.epp')` is `<dir>/apache/templates/mod/_require.epp`). Functions written in
 * Ruby (`lib/puppet/functions`) are not run: a call to one stays an unknown function.
 *
 * Module code is someone else's input: names are checked before they become paths, files are read only
 * inside the module's `types/`, `functions/` or `templates/` (symlinks leading out are refused) and only
 * up to a size.
 */
import { decodeUtf8 } from '../shared/text-file.js';
import { EppError, EppEvalError } from './errors.js';
import { unknownFunctionMessage } from './functions/index.js';
import { nodeFs, nodePath, realPathInside } from './node-files.js';
import { AliasType, type PType } from './runtime/types.js';

/** Puppet's rule for a module name and for each segment of a type name, lowercased. */
export const MODULE_NAME = /^[a-z][a-z0-9_]*$/;

/** A type alias or function file larger than this is refused (stdlib's largest is under 8 KB). */
const MAX_SOURCE_BYTES = 256 * 1024;

/** Evaluates the Puppet text of a type alias (epp.ts: with the same module path, for the aliases it names). */
export type AliasEvaluator = (text: string, file: string) => PType;

/**
 * A function written in Puppet, as its file gives it: `function collectd::indent(String $arg) >> String
 * { ... }`. `lambda` is the file's text with the definition's head made a call of its body as a lambda
 * (`with(*$__args) |String $arg| { ... }`), everything else blanked, so that positions in it are the
 * file's; `returnType` is the text after `>>`, if any.
 */
export interface PuppetFunctionSource {
  readonly name: string;
  readonly file: string;
  readonly lambda: string;
  readonly returnType: string | undefined;
}

/** The variable the lambda of a {@link PuppetFunctionSource} takes its arguments from. */
export const FUNCTION_ARGUMENTS = '__function_arguments';

/**
 * A module at a directory of its own, whatever that directory is called: a checkout of `puppet-redis/`
 * holds the module `redis` (Puppet finds modules only by directory name; an editor or a test knows the
 * module's name from its metadata.json).
 */
export interface NamedModule {
  readonly name: string;
  readonly dir: string;
}

/** An entry of a module path: a directory holding modules by name, or one module. */
export type ModulePathEntry = string | NamedModule;

export class ModulePath {
  /** Aliases by lowercased name; null: looked for and not found. */
  private readonly aliases = new Map<string, AliasType | null>();
  /** Functions by name; null: looked for and not found. */
  private readonly functions = new Map<string, PuppetFunctionSource | null>();

  private constructor(readonly entries: readonly ModulePathEntry[]) {}

  private static readonly byEntries = new WeakMap<readonly ModulePathEntry[], ModulePath>();

  /** The module path of these entries, one per array (its aliases are read once). */
  static of(entries: readonly ModulePathEntry[]): ModulePath {
    let path = ModulePath.byEntries.get(entries);
    if (!path) {
      path = new ModulePath(entries);
      ModulePath.byEntries.set(entries, path);
    }
    return path;
  }

  /** `epp('<module>/<file>')`: the real path of `<dir>/<module>/templates/<file>` in the first directory. */
  templateFile(path: string): string | undefined {
    const slash = path.indexOf('/');
    const module = path.slice(0, slash);
    if (slash < 0 || !MODULE_NAME.test(module)) return undefined;
    const { join } = nodePath();
    for (const root of this.rootsOf(module)) {
      const found = realPathInside(join(root, 'templates'), path.slice(slash + 1));
      if (found) return found;
    }
    return undefined;
  }

  /** The directories where `module` may be, in the path's order. */
  private *rootsOf(module: string): Iterable<string> {
    const { join } = nodePath();
    for (const entry of this.entries) {
      if (typeof entry === 'string') yield join(entry, module);
      else if (entry.name === module) yield entry.dir;
    }
  }

  /**
   * The type alias `name` (`Module::Name` or deeper) of a module on the path, or undefined. Its body is
   * evaluated on first use (an `AliasType`, so that an alias may refer to itself, as Puppet allows).
   */
  typeAlias(name: string, evaluate: AliasEvaluator): AliasType | undefined {
    const key = name.toLowerCase();
    const known = this.aliases.get(key);
    if (known !== undefined) return known ?? undefined;
    const segments = key.split('::');
    if (segments.length < 2 || !segments.every((s) => MODULE_NAME.test(s))) return undefined;
    const found = this.moduleFile(segments, 'types');
    const alias = found
      ? new AliasType(declaredName(found.text, name, found.file), () => {
          const body = aliasBody(found.text, name, found.file);
          try {
            return evaluate(body, found.file);
          } catch (e) {
            // The error's code frame shows the file, not the copy with its head blanked (same offsets).
            if (e instanceof EppError && e.location?.source === body) {
              e.location = { ...e.location, source: found.text };
            }
            throw e;
          }
        })
      : null;
    this.aliases.set(key, alias);
    return alias ?? undefined;
  }

  /**
   * The function `name` (`module::name` or deeper) written in Puppet in a module on the path, or
   * undefined.
   */
  puppetFunction(name: string): PuppetFunctionSource | undefined {
    const known = this.functions.get(name);
    if (known !== undefined) return known ?? undefined;
    const segments = name.split('::');
    let source: PuppetFunctionSource | null = null;
    if (segments.length >= 2 && segments.every((s) => MODULE_NAME.test(s))) {
      const found = this.moduleFile(segments, 'functions');
      if (found) source = functionSource(found.text, name, found.file);
    }
    this.functions.set(name, source);
    return source ?? undefined;
  }

  /**
   * The error for a call of `name` that a module on the path defines in Ruby
   * (`lib/puppet/functions/<module>/<name>.rb`), which Pantograph cannot run; undefined when none does.
   */
  rubyFunctionError(name: string): EppEvalError | undefined {
    const [module, ...rest] = name.split('::');
    if (rest.length === 0 || ![module!, ...rest].every((s) => MODULE_NAME.test(s))) return undefined;
    const { join } = nodePath();
    for (const root of this.rootsOf(module!)) {
      const file = realPathInside(join(root, 'lib', 'puppet', 'functions', module!), `${rest.join('/')}.rb`);
      if (file) {
        return new EppEvalError(
          'EPP_UNKNOWN_FUNCTION',
          unknownFunctionMessage(name),
          undefined,
          `${file} writes it in Ruby, which Pantograph does not run: a template rendered by Pantograph cannot call it`,
        );
      }
    }
    return undefined;
  }

  /**
   * The file that defines a module's type alias (`Redis::LogLevel`) or function (`redis::format`), for an
   * editor to go to: `<module>/types/loglevel.pp` or `<module>/functions/format.pp` of the first entry that
   * has it (its real path), or undefined.
   */
  definitionFile(kind: 'types' | 'functions', name: string): string | undefined {
    const segments = kind === 'types' ? name.toLowerCase().split('::') : name.split('::');
    if (segments.length < 2 || !segments.every((s) => MODULE_NAME.test(s))) return undefined;
    return this.locate(segments, kind);
  }

  /** `<module>/<kind>/<rest...>.pp` of the first entry that has it (its real path). */
  private locate(segments: readonly string[], kind: 'types' | 'functions'): string | undefined {
    const { join } = nodePath();
    const [module, ...rest] = segments;
    for (const root of this.rootsOf(module!)) {
      const file = realPathInside(join(root, kind), `${rest.join('/')}.pp`);
      if (file) return file;
    }
    return undefined;
  }

  /** `<module>/<kind>/<rest...>.pp` of the first entry that has it, read and decoded. */
  private moduleFile(
    segments: readonly string[],
    kind: 'types' | 'functions',
  ): { file: string; text: string } | undefined {
    const file = this.locate(segments, kind);
    if (!file) return undefined;
    const code = kind === 'types' ? 'EPP_UNKNOWN_TYPE' : 'EPP_UNKNOWN_FUNCTION';
    const fs = nodeFs();
    if (fs.statSync(file).size > MAX_SOURCE_BYTES) {
      throw new EppEvalError(code, `${file} is larger than ${MAX_SOURCE_BYTES / 1024} KB`);
    }
    const decoded = decodeUtf8(fs.readFileSync(file));
    if ('problem' in decoded) {
      const { message, hint } = decoded.problem;
      throw new EppEvalError('EPP_ENCODING', `${file} ${message}`, undefined, hint);
    }
    return { file, text: decoded.text };
  }
}

/** `type Redis::LogLevel = ...` at the start of a line (comment lines start with `#`). */
const DECLARATION = /^[ \t]*type[ \t]+([A-Z]\w*(?:::[A-Z]\w*)*)[ \t]*=/m;

/** The name the file declares, as it spells it (Puppet's messages use it), checked against the one asked. */
function declaredName(text: string, name: string, file: string): string {
  const declared = DECLARATION.exec(text)?.[1];
  if (declared === undefined) {
    throw new EppEvalError(
      'EPP_UNKNOWN_TYPE',
      `${file} does not declare a type alias (\`type ${name} = ...\`)`,
    );
  }
  if (declared.toLowerCase() !== name.toLowerCase()) {
    throw new EppEvalError('EPP_UNKNOWN_TYPE', `${file} declares the type ${declared}, not ${name}`);
  }
  return declared;
}

/**
 * The alias's type expression: the text after `=`, with what came before it blanked out rather than
 * removed, so that an error in it points at its line and column in the file.
 */
function aliasBody(text: string, name: string, file: string): string {
  const match = DECLARATION.exec(text);
  if (!match) declaredName(text, name, file);
  const end = match!.index + match![0].length;
  return text.slice(0, end).replace(/[^\n]/g, ' ') + text.slice(end);
}

/** `function collectd::indent(` at the start of a line. */
const FUNCTION_HEAD = /^[ \t]*function[ \t]+([a-z]\w*(?:::[a-z]\w*)+)[ \t]*\(/m;

/** Reads a function's definition (see {@link PuppetFunctionSource}); a malformed one is an error. */
function functionSource(text: string, name: string, file: string): PuppetFunctionSource {
  const head = FUNCTION_HEAD.exec(text);
  const malformed = (what: string) =>
    new EppEvalError('EPP_UNKNOWN_FUNCTION', `${file} ${what} (\`function ${name}(...) { ... }\`)`);
  if (!head) throw malformed('does not define a function');
  if (head[1] !== name) throw malformed(`defines the function ${head[1]}, not ${name}`);
  const open = head.index + head[0].length - 1;
  const close = matching(text, open);
  const body = text.indexOf('{', close);
  const arrow = text.indexOf('>>', close);
  if (close < 0 || body < 0) throw malformed('has no parameter list and body');
  const hasReturnType = arrow >= 0 && arrow < body;
  const end = matching(text, body);
  if (end < 0) throw malformed('has no end to its body');
  const blank = (from: number, to: number) => text.slice(from, to).replace(/[^\n]/g, ' ');
  const start = `with(*$${FUNCTION_ARGUMENTS}) |`;
  const headText = text.slice(head.index, open + 1);
  const lambda =
    blank(0, head.index) +
    (start.length <= headText.length ? start.padEnd(headText.length) : start) +
    text.slice(open + 1, close) +
    '|' +
    blank(close + 1, body) +
    text.slice(body, end + 1) +
    blank(end + 1, text.length);
  return {
    name,
    file,
    lambda,
    returnType: hasReturnType ? text.slice(arrow + 2, body).trim() : undefined,
  };
}

/**
 * The index of the bracket closing the one at `open` (`(`, `[` or `{`), skipping strings and comments;
 * -1 when there is none.
 */
function matching(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '#') {
      const eol = text.indexOf('\n', i);
      if (eol < 0) return -1;
      i = eol;
    } else if (c === "'" || c === '"') {
      i = stringEnd(text, i);
      if (i < 0) return -1;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/** The index of the quote ending the string that starts at `start`, or -1 (a backslash escapes). */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}
