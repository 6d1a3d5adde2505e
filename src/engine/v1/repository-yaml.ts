/**
 * A YAML data file of a V1 repository or modulesync configuration (config_defaults.yml, modulesync.yml,
 * managed_modules.yml) read as data, as Psych reads it (YAML 1.1). Such a repository may come from a git
 * source, so the file is read only when it is a regular file under `maxBytes`; nothing in it runs.
 */
import { readFileSync, statSync } from 'node:fs';
import type { Data } from '../model.js';
import { parseYamlData } from '../yaml-data.js';

export type RepositoryYaml =
  | { readonly data: Data }
  /** Why it is not read: too large, not a regular file, does not parse. */
  | { readonly unread: string };

/** The file's data; `undefined` when there is no such file. */
export function readRepositoryYaml(file: string, maxBytes: number): RepositoryYaml | undefined {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return { unread: 'it is not a regular file' };
    size = stat.size;
  } catch {
    return undefined;
  }
  if (size > maxBytes) {
    const mb = (n: number) => (n / 1_000_000).toFixed(1);
    return { unread: `it has ${mb(size)} MB, over the limit of ${mb(maxBytes)} MB` };
  }
  const parsed = parseYamlData(readFileSync(file, 'utf8'), file, { version: '1.1', errorCode: 'SYNC_YAML' });
  const first = parsed.problems.find((p) => p.severity === 'error');
  if (first) return { unread: `it does not parse: ${first.message} (line ${first.line})` };
  return { data: parsed.data ?? null };
}
