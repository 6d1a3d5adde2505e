/**
 * Reading the V1 `.sync.yml` for `convert` (engine/convert.ts) as PDK read it: a PDK module without one is
 * `--- {}`, and a top-level key given twice keeps its last value, as Ruby's YAML does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMap, isScalar, type Node, type Pair, parseDocument, type YAMLMap } from 'yaml';
import { EngineError, problem } from './errors.js';
import { MODULESYNC_HINT, managedByPdk, modulesyncMark } from './module-manager.js';
import { SYNC_FILE } from './project-config.js';
import type { Problem } from './render-plan.js';
import { danglingLinkError } from './sync-file.js';

/**
 * The V1 text. A PDK module needs no `.sync.yml` (metadata.json's `pdk-version` or `template-url` says PDK
 * manages it): then it is read as `--- {}`, what PDK's own new modules start with.
 *
 * A `.sync.yml` is PDK's only in a module PDK manages: modulesync's is keyed by file too, but configures
 * modulesync_config's templates, and mapping it to pdk-templates' files would replace modulesync's files.
 * A module with `.msync.yml` and no PDK keys in metadata.json is refused; one with a metadata.json without
 * them is converted with a warning at metadata.json.
 */
export function readV1Text(
  dir: string,
  file: string,
): { text: string; created: boolean; problems: Problem[] } {
  try {
    const text = readFileSync(file, 'utf8');
    return { text, created: false, problems: notPdkProblems(dir) };
  } catch (e) {
    if (e instanceof EngineError) throw e;
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new EngineError('SYNC_READ', `cannot read ${file}: ${(e as Error).message}`);
    }
    const dangling = danglingLinkError(file);
    if (dangling) throw dangling;
  }
  if (managedByPdk(dir)) return { text: '--- {}\n', created: true, problems: [] };
  throw new EngineError(
    'SYNC_NOT_FOUND',
    `no ${SYNC_FILE} in ${dir}, and metadata.json names no PDK template`,
    {
      hint: 'there is nothing to convert; `pantograph init` creates a V2 project',
    },
  );
}

/** Nothing when PDK manages the module; else the warning, or the error for a modulesync module. */
function notPdkProblems(dir: string): Problem[] {
  if (managedByPdk(dir)) return [];
  const metadata = { file: join(dir, 'metadata.json'), line: 1, column: 1 };
  const msync = modulesyncMark(dir);
  if (msync !== undefined) {
    throw new EngineError(
      'CONVERT_NOT_PDK',
      `this module is managed by modulesync (.msync.yml), not by PDK (metadata.json has no pdk-version or template-url): its ${SYNC_FILE} configures modulesync's templates, not pdk-templates', so there is nothing to convert`,
      {
        position: { file: msync, line: 1, column: 1 },
        hint: `${MODULESYNC_HINT}; if PDK manages it too, metadata.json's pdk-version says so (\`pdk convert\` writes it)`,
      },
    );
  }
  // Without metadata.json there is no telling (a bare .sync.yml in a directory).
  if (!existsSync(metadata.file)) return [];
  return [
    problem(
      'warning',
      'CONVERT_NOT_PDK',
      `metadata.json has no pdk-version or template-url: PDK does not seem to manage this module, and ${SYNC_FILE} is converted as PDK's`,
      metadata,
      "if it configures other templates (modulesync's, for one), do not write the result",
    ),
  ];
}

/**
 * A top-level key given twice: Ruby's YAML (and so PDK) takes the last one, where yaml refuses the file.
 * The earlier ones are blanked out of the text (their lines kept, so that every position still points at
 * the file) and each is reported where it is.
 */
export function dropDuplicateKeys(text: string, file: string): { text: string; problems: Problem[] } {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return { text, problems: [] };
  const pairs = (doc.contents as YAMLMap).items as Pair[];
  const last = new Map<string, Pair>();
  for (const pair of pairs) if (isScalar(pair.key)) last.set(String(pair.key.value), pair);
  const problems: Problem[] = [];
  let out = text;
  for (const pair of pairs) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const winner = last.get(key)!;
    if (winner === pair) continue;
    const start = (pair.key as Node).range![0];
    const end = ((pair.value as Node | null)?.range ?? (pair.key as Node).range!)[2];
    const line = (offset: number) => text.slice(0, offset).split('\n').length;
    out = `${out.slice(0, start)}${out.slice(start, end).replace(/[^\n]/g, '')}${out.slice(end)}`;
    problems.push(
      problem(
        'warning',
        'SYNC_YAML',
        `'${key}' is given twice (lines ${line(start)} and ${line((winner.key as Node).range![0])}): as PDK reads the file, the last one wins, and this one is dropped`,
        { file, line: line(start), column: 1 },
        'merge the two into one if both were meant',
      ),
    );
  }
  return { text: out, problems };
}
