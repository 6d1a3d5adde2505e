/**
 * A V1 repository's (or modulesync configuration's) `config_defaults.yml` read as data: the settings each
 * of its files reads and their defaults, which PDK and msync merge under `.sync.yml`. Reading it runs none
 * of the repository's code, so an editor can offer and explain those keys where the ERB may not run.
 * Read as Psych reads it (YAML 1.1); a file over `maxBytes`, or one that does not parse, is not read.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DataMap } from '../model.js';
import { isDataMap } from '../settings.js';
import { parseYamlData } from '../yaml-data.js';

export type ConfigDefaults =
  | { readonly data: DataMap }
  /** Why it is not read: too large, does not parse, is not a mapping. */
  | { readonly unread: string };

export const CONFIG_DEFAULTS = 'config_defaults.yml';

export function readConfigDefaults(dir: string, maxBytes: number): ConfigDefaults | undefined {
  const file = join(dir, CONFIG_DEFAULTS);
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return undefined;
    size = stat.size;
  } catch {
    return undefined;
  }
  if (size > maxBytes) {
    const mb = (n: number) => (n / 1_000_000).toFixed(1);
    return { unread: `it has ${mb(size)} MB, over the limit of ${mb(maxBytes)} MB` };
  }
  const parsed = parseYamlData(readFileSync(file, 'utf8'), file, {
    version: '1.1',
    errorCode: 'SYNC_YAML',
  });
  const first = parsed.problems.find((p) => p.severity === 'error');
  if (first) return { unread: `it does not parse: ${first.message} (line ${first.line})` };
  if (parsed.data === undefined || parsed.data === null) return { data: {} };
  if (!isDataMap(parsed.data)) return { unread: 'it holds no mapping' };
  return { data: parsed.data };
}
