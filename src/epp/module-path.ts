/**
 * A module path, as Puppet's `--modulepath`: directories holding modules by name (`<dir>/redis/`). What a
 * module's templates use of their module, and of the modules beside it: type aliases
 * (`Redis::LogLevel` is `<dir>/redis/types/loglevel.pp`) and templates (`epp('apache/mod/_require.epp')`
 * is `<dir>/apache/templates/mod/_require.epp`). Functions written in Puppet (`functions/*.pp`) are not
 * read: a call to one stays an unknown function.
 *
 * Module code is someone else's input: names are checked before they become paths, files are read only
 * inside the module's `types/` or `templates/` (symlinks leading out are refused) and only up to a size.
 */
import { decodeUtf8 } from '../shared/text-file.js';
import { EppEvalError } from './errors.js';
import { nodeFs, nodePath, realPathInside } from './node-files.js';
import { AliasType, type PType } from './runtime/types.js';

/** Puppet's rule for a module name and for each segment of a type name, lowercased. */
const MODULE_NAME = /^[a-z][a-z0-9_]*$/;

/** A type alias file larger than this is refused (stdlib's largest is under 2 KB). */
const MAX_ALIAS_BYTES = 256 * 1024;

/** Evaluates the Puppet text of a type alias (epp.ts: with the same module path, for the aliases it names). */
export type AliasEvaluator = (text: string, file: string) => PType;

export class ModulePath {
  /** Aliases by lowercased name; null: looked for and not found. */
  private readonly aliases = new Map<string, AliasType | null>();

  private constructor(readonly dirs: readonly string[]) {}

  private static readonly byDirs = new WeakMap<readonly string[], ModulePath>();

  /** The module path of these directories, one per array (its aliases are read once). */
  static of(dirs: readonly string[]): ModulePath {
    let path = ModulePath.byDirs.get(dirs);
    if (!path) {
      path = new ModulePath(dirs);
      ModulePath.byDirs.set(dirs, path);
    }
    return path;
  }

  /** `epp('<module>/<file>')`: the real path of `<dir>/<module>/templates/<file>` in the first directory. */
  templateFile(path: string): string | undefined {
    const slash = path.indexOf('/');
    const module = path.slice(0, slash);
    if (slash < 0 || !MODULE_NAME.test(module)) return undefined;
    const { join } = nodePath();
    for (const dir of this.dirs) {
      const found = realPathInside(join(dir, module, 'templates'), path.slice(slash + 1));
      if (found) return found;
    }
    return undefined;
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
    const found = this.aliasSource(segments);
    const alias = found
      ? new AliasType(declaredName(found.text, name, found.file), () =>
          evaluate(aliasBody(found.text, name, found.file), found.file),
        )
      : null;
    this.aliases.set(key, alias);
    return alias ?? undefined;
  }

  private aliasSource(segments: readonly string[]): { file: string; text: string } | undefined {
    const { join } = nodePath();
    const [module, ...rest] = segments;
    for (const dir of this.dirs) {
      const file = realPathInside(join(dir, module!, 'types'), `${rest.join('/')}.pp`);
      if (!file) continue;
      const fs = nodeFs();
      if (fs.statSync(file).size > MAX_ALIAS_BYTES) {
        throw new EppEvalError(
          'EPP_UNKNOWN_TYPE',
          `the type alias file ${file} is larger than ${MAX_ALIAS_BYTES / 1024} KB`,
        );
      }
      const decoded = decodeUtf8(fs.readFileSync(file));
      if ('problem' in decoded) {
        const { message, hint } = decoded.problem;
        throw new EppEvalError('EPP_ENCODING', `the type alias file ${file} ${message}`, undefined, hint);
      }
      return { file, text: decoded.text };
    }
    return undefined;
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
