/**
 * The V1 repository or modulesync configuration a previous run applied, as `.pantograph.lock` records it: a
 * modulesync module names no configuration anywhere (`.msync.yml` has only its version, metadata.json no
 * `template-url`), so without this every run needed `--template-url`. Used only when neither the option nor
 * metadata.json names one, and only from a lock a V1 run wrote (one source, the `v1` or `modulesync`
 * template). The lock is a file of the repository, which a pull request can change: it grants no trust (a
 * git URL still needs `--trust`), and a directory it names must lie outside the project.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { LOCK_FILE } from '../../shared/project-files.js';
import { readLock } from '../../sync/lock.js';
import type { Position } from '../model.js';
import { MODULESYNC_TEMPLATE_NAME, V1_TEMPLATE_NAME } from './repository.js';

/** `location#ref` of the lock's V1 source; undefined when the lock is absent, unreadable or V2. */
export function lockedTemplateUrl(root: string): string | undefined {
  let lock: ReturnType<typeof readLock>;
  try {
    lock = readLock(root);
  } catch {
    return undefined; // a broken lock is the sync's to report, where it is read for the files
  }
  const template = lock?.templates[0]?.name;
  if (lock === undefined || lock.sources.length !== 1 || lock.templates.length !== 1) return undefined;
  if (template !== V1_TEMPLATE_NAME && template !== MODULESYNC_TEMPLATE_NAME) return undefined;
  const source = lock.sources[0]!;
  if (source.type === 'default' || source.location === '') return undefined;
  return source.ref !== undefined ? `${source.location}#${source.ref}` : source.location;
}

/** A directory the lock names inside the project would run the repository's own files as templates. */
export function insideProject(root: string, dir: string): boolean {
  const rel = relative(resolve(root), resolve(dir));
  return rel === '' || !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** The line of the lock's source location, for a problem with it. */
export function lockedTemplateUrlPosition(root: string, location: string): Position {
  const file = join(root, LOCK_FILE);
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    const quoted = JSON.stringify(location);
    const index = lines.findIndex((l) => l.includes(`"location": ${quoted}`));
    if (index >= 0) return { file, line: index + 1, column: lines[index]!.indexOf('"location"') + 1 };
  } catch {
    // the top of the file
  }
  return { file, line: 1, column: 1 };
}
