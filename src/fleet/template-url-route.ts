/**
 * Which way a repository is rendered: by the fleet's V2 `template_sources` and settings written into its
 * `.sync.yml` (one with `pdk_template`), or by the fleet's `template_url` as it is (PDK V1, modulesync,
 * none), and that `template_url` as the repository is given it.
 */
import { relative, sep } from 'node:path';
import { parseYamlData } from '../engine/yaml-data.js';
import { isPlainObject } from '../shared/plain-object.js';

/** `.sync.yml` is V2 (a mapping with `pdk_template`); a file that does not parse counts as V2 (its errors are the plan's). */
export function isV2SyncText(text: string, file: string): boolean {
  if (text.trim() === '') return false;
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
  if (parsed.data === undefined) return true;
  return isPlainObject(parsed.data) && Object.hasOwn(parsed.data, 'pdk_template');
}

/**
 * The fleet's `template_url` as this repository is given it: a directory the fleet file names relatively
 * is named relative to the repository (`../../modulesync_config`), so that the lock committed there
 * records no path of this machine (v1/template-url.ts keeps a relative path relative).
 */
export function templateUrlFor(url: string, namedRelative: boolean, dir: string): string {
  if (!namedRelative) return url;
  const hash = url.indexOf('#');
  const path = hash < 0 ? url : url.slice(0, hash);
  const rel = relative(dir, path).split(sep).join('/');
  const named = rel === '' ? '.' : rel === '..' || rel.startsWith('../') ? rel : `./${rel}`;
  return hash < 0 ? named : `${named}${url.slice(hash)}`;
}
