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

/**
 * The real path of `relativePath` inside `base`, or undefined when it does not exist or leads outside
 * `base` (`..`, an absolute path, a symlink pointing out).
 */
export function realPathInside(base: string, relativePath: string): string | undefined {
  const { isAbsolute, relative, resolve, sep } = nodePath();
  if (isAbsolute(relativePath)) return undefined;
  let real: string;
  let realBase: string;
  try {
    realBase = nodeFs().realpathSync(base);
    real = nodeFs().realpathSync(resolve(base, relativePath));
  } catch {
    return undefined;
  }
  const rel = relative(realBase, real);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return real;
}
