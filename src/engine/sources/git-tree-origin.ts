/**
 * Where a file of a git source's checkout comes from. Problems in a git source's templates and hooks are
 * positioned in its cached tree (`<cache>/git/<sha256>/trees/<commit>/t1/files/x.epp`): a real file that
 * an editor opens, but a path that says nothing about which repository and file to fix. This reads the
 * remote back from the mirror beside the tree, so that a message can name both.
 */
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { withoutCredentials } from '../../shared/url-credentials.js';
import { cacheRoot } from '../cache-dir.js';

export interface GitTreeOrigin {
  /** The source's location, without credentials or secret query parameters. */
  readonly location: string;
  readonly commit: string;
  /** The file's path in the repository, with `/`. */
  readonly path: string;
}

const TREE_FILE = /^git\/([0-9a-f]{64})\/trees\/([0-9a-f]{40}|[0-9a-f]{64})\/(.+)$/;

/** The origin of `file` when it lies in a git source's cached tree, else undefined. */
export function gitTreeOrigin(file: string, env: NodeJS.ProcessEnv = process.env): GitTreeOrigin | undefined {
  const inCache = relative(cacheRoot(env), file).split(sep).join('/');
  const match = TREE_FILE.exec(inCache);
  if (!match) return undefined;
  const [, remote, commit, path] = match as unknown as [string, string, string, string];
  const location = originUrl(`${cacheRoot(env)}/git/${remote}/repo.git/config`);
  return location === undefined ? undefined : { location: withoutCredentials(location), commit, path };
}

/** `remote.origin.url` of a bare mirror's config, or undefined when it cannot be read. */
function originUrl(configFile: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch {
    return undefined;
  }
  const section = /^\s*\[remote "origin"\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(text)?.[1];
  return section === undefined ? undefined : /^\s*url\s*=\s*(.+?)\s*$/m.exec(section)?.[1];
}
