/**
 * Node's file modules, loaded when a template first reads a file: the EPP engine imports no `node:`
 * module, so that it runs in a browser as it is (there, `files` replaces `baseDir`, and there is no
 * module path).
 */
import { EppEvalError } from './errors.js';

export function nodeFs(): typeof import('node:fs') {
  return nodeModule('node:fs') as typeof import('node:fs');
}

export function nodePath(): typeof import('node:path') {
  return nodeModule('node:path') as typeof import('node:path');
}

function nodeModule(name: string): unknown {
  const get = globalThis.process?.getBuiltinModule;
  if (typeof get !== 'function') {
    throw new EppEvalError(
      'EPP_TEMPLATE_NOT_FOUND',
      'epp() of a file needs Node.js here: give the files as `files` (a map of path to text) instead',
    );
  }
  return get(name);
}

/** Where a relative path leads from a base directory: its real path, or why there is none. */
export type PathInside = { readonly real: string } | { readonly problem: 'absolute' | 'missing' | 'outside' };

/**
 * The real path of `relativePath` inside `base`, or why not: an absolute path, a file that does not
 * exist, or one outside `base` (`..`, a symlink pointing out).
 */
export function resolveInside(base: string, relativePath: string): PathInside {
  const { isAbsolute, relative, resolve, sep } = nodePath();
  if (isAbsolute(relativePath)) return { problem: 'absolute' };
  let real: string;
  let realBase: string;
  try {
    realBase = nodeFs().realpathSync(base);
    real = nodeFs().realpathSync(resolve(base, relativePath));
  } catch {
    return { problem: 'missing' };
  }
  const rel = relative(realBase, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    return { problem: 'outside' };
  return { real };
}

/** The real path of `relativePath` inside `base`, or undefined (see {@link resolveInside}). */
export function realPathInside(base: string, relativePath: string): string | undefined {
  const found = resolveInside(base, relativePath);
  return 'real' in found ? found.real : undefined;
}
