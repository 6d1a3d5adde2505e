/**
 * Pantograph's cache directory (git mirrors and trees, the render cache, the digest record, the status
 * memo): `PANTOGRAPH_CACHE_DIR`, else `$XDG_CACHE_HOME/pantograph`, else `~/.cache/pantograph`. A module
 * of its own, so that finding it loads nothing else.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The cache root directory. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PANTOGRAPH_CACHE_DIR) return resolve(env.PANTOGRAPH_CACHE_DIR);
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'pantograph');
}
