/**
 * A V1 repository's (or modulesync configuration's) `config_defaults.yml` read as data: the settings each
 * of its files reads and their defaults, which PDK and msync merge under `.sync.yml`. Reading it runs none
 * of the repository's code, so an editor can offer and explain those keys where the ERB may not run.
 * Read as Psych reads it (YAML 1.1); a file over `maxBytes`, or one that does not parse, is not read.
 */
import { join } from 'node:path';
import type { DataMap } from '../model.js';
import { isDataMap } from '../settings.js';
import { readRepositoryYaml } from './repository-yaml.js';

export type ConfigDefaults =
  | { readonly data: DataMap }
  /** Why it is not read: too large, does not parse, is not a mapping. */
  | { readonly unread: string };

export const CONFIG_DEFAULTS = 'config_defaults.yml';

export function readConfigDefaults(dir: string, maxBytes: number): ConfigDefaults | undefined {
  const read = readRepositoryYaml(join(dir, CONFIG_DEFAULTS), maxBytes);
  if (read === undefined || 'unread' in read) return read;
  if (read.data === null) return { data: {} };
  if (!isDataMap(read.data)) return { unread: 'it holds no mapping' };
  return { data: read.data };
}
