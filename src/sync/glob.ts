/**
 * Glob matching for `unmanaged`, `delete` and `post` patterns, by picomatch: `*` and `?` stay inside one
 * path segment, `**` spans segments, `[abc]` / `[!abc]` are classes and `{a,b}` alternatives; dot files
 * match like any other (a project's `.travis.yml` is what `delete: ['*.yml']` means). A pattern that names a
 * directory also matches everything under it (`unmanaged: [spec/fixtures]`).
 */
import picomatch from 'picomatch';

/**
 * `posix`: `[!a]` is a negated class as in a shell (picomatch otherwise reads a leading `[!` differently);
 * `nonegate`: a leading `!` is a file name's, not a negation. Parentheses are escaped before matching
 * (`literalParens`): in picomatch they are regex groups and extglobs, in a file name (`notes (old).md`) they
 * are characters, and the patterns we document have no groups.
 */
const OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, nonegate: true, noextglob: true };
const matchers = new Map<string, (path: string) => boolean>();

export function hasGlobChars(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

function matcher(pattern: string): (path: string) => boolean {
  let match = matchers.get(pattern);
  if (!match) {
    match = picomatch(literalParens(pattern), OPTIONS);
    matchers.set(pattern, match);
  }
  return match;
}

function literalParens(pattern: string): string {
  return pattern.replace(/[()]/g, '\\$&');
}

/** True when `path` or one of its parent directories matches `pattern`. */
export function matchesPath(pattern: string, path: string): boolean {
  const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!hasGlobChars(clean)) return path === clean || path.startsWith(`${clean}/`);
  const match = matcher(clean);
  if (match(path)) return true;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    if (match(path.slice(0, i))) return true;
  }
  return false;
}

export function matchesAny(patterns: readonly string[], path: string): boolean {
  for (const p of patterns) if (matchesPath(p, path)) return true;
  return false;
}

/** Matches a `post` glob against a file's basename. */
export function matchesBasename(pattern: string, path: string): boolean {
  return matcher(pattern)(path.slice(path.lastIndexOf('/') + 1));
}

/** A planned file that an entry of `delete` names. */
export interface DeletedOutput {
  readonly path: string;
  readonly template: string;
  /** Index of the first `delete` entry that names it. */
  readonly entry: number;
}

/**
 * The planned files (not empty ones: they mean "no file") that `delete` names: an error wherever a plan
 * is judged (the engine's plan, with the entry's place in `.sync.yml`; sync's own check of a plan).
 */
export function deletedOutputs(
  files: readonly { readonly path: string; readonly template: string; readonly empty: boolean }[],
  deletes: readonly string[],
  unmanaged: readonly string[] = [],
): DeletedOutput[] {
  if (deletes.length === 0) return [];
  const out: DeletedOutput[] = [];
  for (const file of files) {
    // An unmanaged path is neither written nor removed: a `delete` glob that also matches it changes nothing.
    if (file.empty || matchesAny(unmanaged, file.path)) continue;
    const entry = deletes.findIndex((p) => matchesPath(p, file.path));
    if (entry >= 0) out.push({ path: file.path, template: file.template, entry });
  }
  return out;
}

/** The words of the problem `deletedOutputs` finds, the same wherever it is reported. */
export function deletedOutputMessage(d: DeletedOutput): { message: string; hint: string } {
  return {
    message: `${d.path} is produced by template ${d.template} and listed in delete`,
    hint: 'Remove it from `delete`, or list it under `unmanaged`.',
  };
}
