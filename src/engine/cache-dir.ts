/**
 * Pantograph's cache directory (git mirrors and trees, the render cache, the digest record, the status
 * memo): `PANTOGRAPH_CACHE_DIR`, else `$XDG_CACHE_HOME/pantograph`, else `~/.cache/pantograph`. A module
 * of its own, so that finding it loads nothing else.
 */
import { isAbsolute, join, resolve } from 'node:path';

/** The cache root directory. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PANTOGRAPH_CACHE_DIR) return resolve(env.PANTOGRAPH_CACHE_DIR);
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : join(homeDirectory(), '.cache');
  return join(base, 'pantograph');
}

/**
 * `os.homedir()`, with `node:os` loaded only when asked: this module is loaded by every command (the error
 * reports name a git source's files through it), and loading `node:os` was ~0.6 ms of an `epp render`
 * that never looks at the cache.
 */
function homeDirectory(): string {
  return (process.getBuiltinModule('node:os') as typeof import('node:os')).homedir();
}
