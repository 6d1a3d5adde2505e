/**
 * The keys of a V1 `.sync.yml` that PDK silently ignores, said as warnings when a V1 repository runs as it
 * is: PDK reads a file's settings only under the file's exact path (`rubocop.yml:` is no `.rubocop.yml:`;
 * puppetlabs-mysql carried that typo for years and hand-edited the file instead), and a file's own flags
 * only under their exact names (`unamanged: true` leaves the file managed). `convert` says the same when it
 * moves the file to V2; a module that keeps running its V1 repository heard nothing until now.
 *
 * What is not said: a key of the repository's files, `common`, and a key of a file the repository does not
 * have that holds only `delete`/`unmanaged` flags (puppetlabs modules keep `.travis.yml: {delete: true}`
 * long after pdk-templates dropped it), unless its `delete` is meant and the file is still in the module:
 * PDK deletes only files its repository has.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, type Pair, type YAMLMap } from 'yaml';
import { didYouMean, levenshtein } from '../../shared/did-you-mean.js';
import { quotedKey } from '../../shared/quoted-key.js';
import { problem } from '../errors.js';
import type { Position, SyncConfig } from '../model.js';
import type { Problem } from '../render-plan.js';
import { isDataMap } from '../settings.js';
import { readConfigDefaults } from './config-defaults.js';

/** A larger config_defaults.yml is not read for this check (the Ruby worker has read it under its limits). */
const MAX_DEFAULTS_BYTES = 2_000_000;

/** The per-file keys PDK itself acts on (pdk/lib/pdk/module/update_manager.rb, template_dir.rb). */
const FLAGS = ['unmanaged', 'delete', 'manage_execute_permissions'] as const;

/** What the check reads of a `.sync.yml`: its parsed document and text, where it is. */
export type SyncKeysInput = Pick<SyncConfig, 'document' | 'text' | 'file' | 'root'>;

export function ignoredSyncKeys(
  config: SyncKeysInput,
  repositoryPaths: readonly string[],
  repositoryDir: string,
): Problem[] {
  const top = config.document.contents;
  if (!isMap(top)) return [];
  const paths = new Set(repositoryPaths);
  const defaults = configDefaults(repositoryDir);
  const problems: Problem[] = [];
  for (const pair of top.items as Pair[]) {
    const key = keyOf(pair);
    if (key === undefined || key === 'common') continue;
    const at = keyPosition(config, pair);
    const value = pair.value;
    if (paths.has(key)) {
      if (isMap(value)) problems.push(...misspeltFlags(config, key, value, defaults.get(key)));
      continue;
    }
    // An empty key (`.gitpod.yml:`) carries nothing to ignore.
    if (value === null || (isScalar(value) && value.value === null)) continue;
    const meant = paths.has(key.trim()) ? key.trim() : likelyPath(key, [...repositoryPaths, 'common']);
    const name = quotedKey(key);
    if (meant !== undefined) {
      problems.push(
        problem(
          'warning',
          'V1_SYNC_KEY',
          `${name} is no file of the V1 repository${meant === 'common' ? " nor 'common'" : ''}: PDK ignores its settings; did you mean '${meant}'?`,
          at,
          meant === 'common'
            ? "rename the key to 'common' (its settings then reach every file)"
            : `rename the key to '${meant}' (its settings then reach that file)`,
        ),
      );
      continue;
    }
    const flagsOnly =
      isMap(value) &&
      (value.items as Pair[]).every((p) => (FLAGS as readonly (string | undefined)[]).includes(keyOf(p)));
    if (flagsOnly) {
      const del = (value as YAMLMap).get('delete', true);
      const deleting = del !== undefined && isScalar(del) && del.value !== false && del.value !== null;
      if (deleting && existsSync(join(config.root, key))) {
        problems.push(
          problem(
            'warning',
            'V1_SYNC_KEY',
            `'${key}: delete: true' removes nothing: the V1 repository has no ${key}, and PDK deletes only the files it has; ${key} is still in the module`,
            at,
            `delete the file yourself (\`git rm ${key}\`), then the key`,
          ),
        );
      }
      continue;
    }
    problems.push(
      problem(
        'warning',
        'V1_SYNC_KEY',
        isMap(value)
          ? `${name} is no file of the V1 repository: PDK ignores its settings`
          : `${name} is neither a file of the V1 repository nor 'common': PDK ignores it`,
        at,
        isMap(value)
          ? 'remove the key, or move its settings under the file that reads them'
          : "a file's setting goes under that file's key (`Rakefile:`), one for every file under `common:`",
      ),
    );
  }
  return problems;
}

/**
 * The repository's path a key most likely misspells: one in the same directory whose name is a few edits
 * away (a quarter of its length: `rubocop.yml` -> `.rubocop.yml`, but not `auto_release.yml`, a workflow
 * pdk-templates dropped, -> `release.yml`).
 */
function likelyPath(key: string, paths: readonly string[]): string | undefined {
  const slash = key.lastIndexOf('/');
  const dir = key.slice(0, slash + 1);
  const name = key.slice(slash + 1);
  const limit = Math.max(1, Math.floor(name.length / 4));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const path of paths) {
    if (path.slice(0, path.lastIndexOf('/') + 1).toLowerCase() !== dir.toLowerCase()) continue;
    const d = levenshtein(name.toLowerCase(), path.slice(dir.length).toLowerCase());
    if (d < bestDistance) {
      best = path;
      bestDistance = d;
    }
  }
  return best;
}

/** `unamanged: true` under a file's key: a flag PDK does not read, so the file stays managed. */
function misspeltFlags(
  config: SyncKeysInput,
  path: string,
  settings: YAMLMap,
  ownDefaults: ReadonlySet<string> | undefined,
): Problem[] {
  const problems: Problem[] = [];
  for (const pair of settings.items as Pair[]) {
    const key = keyOf(pair);
    if (key === undefined || (FLAGS as readonly string[]).includes(key) || ownDefaults?.has(key)) continue;
    const meant = didYouMean(key, FLAGS);
    if (meant === undefined) continue;
    problems.push(
      problem(
        'warning',
        'V1_SYNC_KEY',
        `'${path}: ${key}' is no setting PDK reads: did you mean '${meant}'? (PDK ignores it: ${meant === 'delete' ? 'the file is not deleted' : meant === 'unmanaged' ? 'the file stays managed' : 'the execute bit is not managed'})`,
        keyPosition(config, pair),
        `rename it to '${meant}'`,
      ),
    );
  }
  return problems;
}

/**
 * Each file's own settings in the repository's config_defaults.yml (a setting there is no typo), read as
 * the language server reads it (config-defaults.ts: YAML 1.1, under a size limit).
 */
function configDefaults(dir: string): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const read = readConfigDefaults(dir, MAX_DEFAULTS_BYTES);
  if (read === undefined || !('data' in read)) return found;
  for (const [file, settings] of Object.entries(read.data)) {
    if (isDataMap(settings)) found.set(file, new Set(Object.keys(settings)));
  }
  return found;
}

/**
 * Where a key is, from its node: the positions index is empty when the file has a key given twice (an
 * error to the YAML reader that Ruby, and so a V1 run, takes with a warning: puppetlabs-apache's Rakefile).
 */
function keyPosition(config: SyncKeysInput, pair: Pair): Position {
  const offset = isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
  const before = config.text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { file: config.file, line: before.split('\n').length, column: offset - lineStart + 1 };
}

function keyOf(pair: Pair): string | undefined {
  return isScalar(pair.key) && pair.key.value !== null ? String(pair.key.value) : undefined;
}
