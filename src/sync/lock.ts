/**
 * `.pantograph.lock`: what Pantograph applied, as deterministic JSON (fixed key order, files sorted by
 * path, one line per file, no timestamps), so that applying twice leaves it byte for byte the same.
 * Template settings keep their own key order: it is the order the templates saw them in.
 */
import { readFileSync, statSync } from 'node:fs';
import type { PlannedSource, RenderPlan } from '../engine/render-plan.js';
import { findDuplicateKey } from '../shared/json-duplicate-key.js';
import { jsonSyntaxError } from '../shared/json-syntax.js';
import { isPlainObject } from '../shared/plain-object.js';
import { lineColumn } from '../shared/position.js';
import { withoutCredentials } from '../shared/url-credentials.js';
import { identityOf, isSettled } from './digests.js';
import { errnoCode, SyncError } from './errors.js';
import { LOCK_FILE, outputPathProblem } from './paths.js';
import { writeFileAtomic } from './write.js';

export const LOCK_VERSION = 1;

export interface LockedFile {
  readonly template: string;
  /** The template's source file (e.g. `files/Gemfile.epp`). */
  readonly source: string;
  /** `init` files were written once for a new project and are never touched again. */
  readonly kind: 'file' | 'init';
  /** Mode written, as an octal string (`0644`). */
  readonly mode: string;
  /** SHA-256 of the rendered output; `''` when its `post` commands failed (so the next run redoes it). */
  readonly rendered: string;
  /** SHA-256 of the content on disk after `post` commands ran. */
  readonly disk: string;
  /** True when the disk content is the user's, accepted by `resolve`: a template change is a conflict. */
  readonly resolved?: boolean;
}

export interface LockedTemplate {
  readonly name: string;
  readonly version?: string;
  readonly source: number;
  readonly settings: Readonly<Record<string, unknown>>;
}

export interface LockFile {
  readonly lockVersion: number;
  readonly engineVersion: string;
  readonly sources: readonly PlannedSource[];
  readonly templates: readonly LockedTemplate[];
  /** Directories Pantograph created, sorted. */
  readonly directories: readonly string[];
  readonly files: ReadonlyMap<string, LockedFile>;
}

export function modeString(mode: number): string {
  return `0${(mode & 0o7777).toString(8).padStart(3, '0')}`;
}

export function parseMode(mode: string): number {
  return Number.parseInt(mode, 8);
}

/** The header of a lock for a plan: engine, sources, templates (files and directories come from apply). */
export function lockFor(
  plan: RenderPlan,
  directories: readonly string[],
  files: ReadonlyMap<string, LockedFile>,
): LockFile {
  return {
    lockVersion: LOCK_VERSION,
    engineVersion: plan.engineVersion,
    sources: plan.sources.map((s) => ({
      type: s.type,
      location: s.location,
      ...(s.ref === undefined ? {} : { ref: s.ref }),
      ...(s.commit === undefined ? {} : { commit: s.commit }),
    })),
    templates: plan.templates.map((t) => ({
      name: t.name,
      ...(t.version === undefined ? {} : { version: t.version }),
      source: t.source,
      settings: t.settings,
    })),
    directories,
    files,
  };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether two locks serialize to the same text (`serializeLock` sorts files and directories). */
export function sameLock(a: LockFile, b: LockFile): boolean {
  if (
    a.lockVersion !== b.lockVersion ||
    a.engineVersion !== b.engineVersion ||
    a.files.size !== b.files.size ||
    JSON.stringify(a.sources) !== JSON.stringify(b.sources) ||
    JSON.stringify(a.templates) !== JSON.stringify(b.templates) ||
    JSON.stringify([...a.directories].sort(cmp)) !== JSON.stringify([...b.directories].sort(cmp))
  ) {
    return false;
  }
  for (const [path, x] of a.files) {
    const y = b.files.get(path);
    if (
      y === undefined ||
      x.template !== y.template ||
      x.source !== y.source ||
      x.kind !== y.kind ||
      x.mode !== y.mode ||
      x.rendered !== y.rendered ||
      x.disk !== y.disk ||
      (x.resolved === true) !== (y.resolved === true)
    ) {
      return false;
    }
  }
  return true;
}

/** Deterministic serialisation. */
export function serializeLock(lock: LockFile): string {
  const ind = (text: string): string => text.replace(/\n/g, '\n  ');
  const files = [...lock.files.keys()].sort(cmp).map((path) => {
    const f = lock.files.get(path)!;
    const entry: LockedFile = {
      template: f.template,
      source: f.source,
      kind: f.kind,
      mode: f.mode,
      rendered: f.rendered,
      disk: f.disk,
    };
    return `    ${JSON.stringify(path)}: ${JSON.stringify(f.resolved ? { ...entry, resolved: true } : entry)}`;
  });
  const parts = [
    `  "lockVersion": ${JSON.stringify(lock.lockVersion)}`,
    `  "engineVersion": ${JSON.stringify(lock.engineVersion)}`,
    `  "sources": ${ind(JSON.stringify(lock.sources.map(withoutSecrets), null, 2))}`,
    `  "templates": ${ind(JSON.stringify(lock.templates, null, 2))}`,
    `  "directories": ${ind(JSON.stringify([...lock.directories].sort(cmp), null, 2))}`,
    `  "files": ${files.length === 0 ? '{}' : `{\n${files.join(',\n')}\n  }`}`,
  ];
  return `{\n${parts.join(',\n')}\n}\n`;
}

/**
 * A source as the lock file holds it: its location without credentials. The lock is committed; a lock
 * an older version wrote with a token in it is read (sources are compared by identity) and written clean.
 */
function withoutSecrets(source: PlannedSource): PlannedSource {
  const location = withoutCredentials(source.location);
  return location === source.location ? source : { ...source, location };
}

const DAMAGED_HINT = 'Restore it from version control, or delete it to start over (files become `adopt`).';

/** A line git writes around the two sides of a conflict. */
const MERGE_MARKER = /^(<{7}|={7}|>{7})( |$)/m;

const MERGED_HINT =
  'Take one side whole (`git checkout --theirs .pantograph.lock`, or `--ours`), then run `pantograph apply`: files already as the templates want them are recorded again, and hand edits are still found.';

const DUPLICATE_HINT =
  'A hand merge kept both sides: delete one of the two (or take one side whole: `git checkout --theirs .pantograph.lock`, or `--ours`), then run `pantograph apply`: files already as the templates want them are recorded again, and hand edits are still found.';

/** A mode as the lock writes it: octal, with a leading zero. */
const MODE = /^0[0-7]{3,4}$/;

/**
 * Reads a lock file. A lock is input like any other (hand-edited, or committed by someone else): every
 * path in it, under `files` and under `directories`, is checked as an output path is (relative, no `..`,
 * not reserved) before anything uses it, and every problem says where it is (line and column).
 */
export function parseLock(text: string, file = LOCK_FILE): LockFile {
  const bad = (why: string, offset?: number, hint = DAMAGED_HINT): never => {
    const { line, column } = lineColumn(text, offset ?? 0);
    throw new SyncError('SYNC_LOCK_INVALID', `${LOCK_FILE} is not a valid Pantograph lock file: ${why}`, {
      path: LOCK_FILE,
      position: { file, line, column },
      hint,
    });
  };
  // A git merge of two branches that both applied leaves both locks in the file, between markers.
  const marker = MERGE_MARKER.exec(text);
  if (marker) return bad('a git merge left conflict markers in it', marker.index, MERGED_HINT);
  // A byte order mark an editor added is read as the space it stands for (offsets stay those of the file).
  const json = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    // JSON.parse's message does not always say where ("Unexpected token"): the syntax scan does.
    const syntax = jsonSyntaxError(text);
    return bad(syntax ? `invalid JSON: ${syntax.message}` : (error as Error).message, syntax?.offset ?? 0);
  }
  if (!isPlainObject(data)) return bad('not a JSON object');
  // JSON.parse keeps the last of two equal keys: a hand merge that kept both sides' entries would pass.
  const duplicate = findDuplicateKey(json, data);
  if (duplicate) {
    const first = lineColumn(text, duplicate.first);
    return bad(
      `${duplicate.path.map((k) => JSON.stringify(k)).join('.')} is given twice (first at line ${first.line}, column ${first.column})`,
      duplicate.second,
      DUPLICATE_HINT,
    );
  }
  if (typeof data.lockVersion === 'number' && data.lockVersion > LOCK_VERSION) {
    const by = typeof data.engineVersion === 'string' ? ` (${data.engineVersion})` : '';
    return bad(
      `lockVersion ${data.lockVersion} was written by a newer Pantograph${by}; this one reads lockVersion ${LOCK_VERSION}`,
      keyOffset(text, 'lockVersion'),
      'Upgrade Pantograph to the version the project uses; deleting the lock would lose what it records.',
    );
  }
  if (data.lockVersion !== LOCK_VERSION)
    return bad(`unsupported lockVersion ${JSON.stringify(data.lockVersion)}`, keyOffset(text, 'lockVersion'));
  if (typeof data.engineVersion !== 'string')
    return bad('engineVersion is not a string', keyOffset(text, 'engineVersion'));
  if (!Array.isArray(data.sources) || !Array.isArray(data.templates)) return bad('sources/templates missing');
  const sourcesAt = keyOffset(text, 'sources');
  data.sources.forEach((source, i) => {
    const why = lockedSourceProblem(source);
    if (why) bad(`sources[${i}] ${why}`, sourcesAt);
  });
  const templatesAt = keyOffset(text, 'templates');
  const sourceCount = data.sources.length;
  data.templates.forEach((template, i) => {
    const why = lockedTemplateProblem(template, sourceCount);
    if (why) bad(`templates[${i}] ${why}`, templatesAt);
  });
  if (!Array.isArray(data.directories) || !data.directories.every((d) => typeof d === 'string')) {
    return bad('directories is not a list of strings', keyOffset(text, 'directories'));
  }
  const directoriesAt = keyOffset(text, 'directories');
  for (const dir of data.directories as string[]) {
    const why = lockedPathProblem(dir);
    if (why) return bad(`directory ${JSON.stringify(dir)} ${why}`, valueOffset(text, dir, directoriesAt));
  }
  if (!isPlainObject(data.files)) return bad('files is not an object', keyOffset(text, 'files'));
  const filesAt = keyOffset(text, 'files');
  const files = new Map<string, LockedFile>();
  const lockedFiles = data.files;
  // for..in, not Object.entries: a 10,000-file lock would build 10,000 pairs first.
  for (const path in lockedFiles) {
    const f = lockedFiles[path];
    const why = lockedPathProblem(path);
    if (why) return bad(`file ${JSON.stringify(path)} ${why}`, valueOffset(text, path, filesAt));
    if (
      !isPlainObject(f) ||
      typeof f.template !== 'string' ||
      typeof f.source !== 'string' ||
      (f.kind !== 'file' && f.kind !== 'init') ||
      typeof f.mode !== 'string' ||
      !MODE.test(f.mode) ||
      typeof f.rendered !== 'string' ||
      typeof f.disk !== 'string'
    ) {
      return bad(`entry ${JSON.stringify(path)} is malformed`, valueOffset(text, path, filesAt));
    }
    const entry: LockedFile = {
      template: f.template,
      source: f.source,
      kind: f.kind,
      mode: f.mode,
      rendered: f.rendered,
      disk: f.disk,
    };
    files.set(path, f.resolved === true ? { ...entry, resolved: true } : entry);
  }
  return {
    lockVersion: LOCK_VERSION,
    engineVersion: data.engineVersion,
    sources: data.sources as PlannedSource[],
    templates: data.templates as LockedTemplate[],
    directories: data.directories as string[],
    files,
  };
}

const SOURCE_TYPES: readonly unknown[] = ['filesystem', 'git', 'default'];
/** A git commit id (SHA-1, or SHA-256 in a repository that uses it): anything else never reaches git. */
const COMMIT_ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** Deeper settings than any template has: a bound, so that no reader or writer of the lock recurses without one. */
const MAX_SETTINGS_DEPTH = 100;

/** Why a locked source may not be used, or undefined. */
function lockedSourceProblem(source: unknown): string | undefined {
  if (!isPlainObject(source)) return 'is not an object';
  if (!SOURCE_TYPES.includes(source.type)) return `has an unknown type ${JSON.stringify(source.type)}`;
  if (typeof source.location !== 'string') return 'has no location string';
  if (source.ref !== undefined && typeof source.ref !== 'string') return 'has a ref that is not a string';
  if (source.commit !== undefined && (typeof source.commit !== 'string' || !COMMIT_ID.test(source.commit)))
    return `has a commit that is not a commit id: ${JSON.stringify(source.commit)}`;
  return undefined;
}

/** Why a locked template may not be used, or undefined. */
function lockedTemplateProblem(template: unknown, sourceCount: number): string | undefined {
  if (!isPlainObject(template)) return 'is not an object';
  if (typeof template.name !== 'string') return 'has no name string';
  if (template.version !== undefined && typeof template.version !== 'string')
    return 'has a version that is not a string';
  const { source } = template;
  if (typeof source !== 'number' || !Number.isInteger(source) || source < 0 || source >= sourceCount)
    return `names no locked source (source ${JSON.stringify(source)})`;
  if (!isPlainObject(template.settings)) return 'has settings that are not an object';
  if (nestingDepth(template.settings) > MAX_SETTINGS_DEPTH)
    return `has settings nested more than ${MAX_SETTINGS_DEPTH} deep`;
  return undefined;
}

/** How deeply arrays and objects nest in a JSON value, measured without recursion (the value may be hostile). */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_SETTINGS_DEPTH) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/** Why a path read from the lock may not be used (the rules of `checkOutputPath`), or undefined. */
function lockedPathProblem(path: string): string | undefined {
  return outputPathProblem(path)?.why;
}

/** The offset of `"key":` in the text, or undefined. */
function keyOffset(text: string, key: string): number | undefined {
  const at = text.indexOf(`${JSON.stringify(key)}:`);
  return at < 0 ? undefined : at;
}

/** The offset of the JSON string `value` at or after `from` (its first occurrence), or undefined. */
function valueOffset(text: string, value: string, from = 0): number | undefined {
  const at = text.indexOf(JSON.stringify(value), from);
  return at < 0 ? undefined : at;
}

/** The project's lock, or undefined when it has none (a new project). */
export function readLock(projectRoot: string): LockFile | undefined {
  const file = `${projectRoot}/${LOCK_FILE}`;
  // Planning and the scan after it both read the lock. A settled lock whose stat is the one it had when
  // it was parsed is that lock (the digest record's rule, digests.ts): a 10,000-file lock is not read again.
  let identity: string | undefined;
  try {
    const stat = statSync(file);
    if (isSettled(stat)) identity = identityOf(stat); // taken before the read below
    if (stat.size > MAX_LOCK_BYTES) throw lockTooLarge(stat.size, file);
  } catch (error) {
    if (error instanceof SyncError) throw error;
    // missing or unreadable: the read says which
  }
  if (identity !== undefined && lastRead?.file === file && lastRead.identity === identity)
    return lastRead.lock;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw new SyncError('SYNC_UNREADABLE', `Cannot read ${LOCK_FILE}: ${errnoCode(error) ?? String(error)}`, {
      path: LOCK_FILE,
      cause: error,
    });
  }
  // The same bytes need no second parse either.
  const lock = lastRead?.text === text && lastRead.file === file ? lastRead.lock : parseLock(text, file);
  lastRead = { file, text, identity, lock };
  return lock;
}

/**
 * The most of a lock `readLock` reads: ~250 bytes a file, so a project of a million files. A lock is input
 * someone else may commit; read whole, one of gigabytes would take the memory of every command.
 */
export const MAX_LOCK_BYTES = 256 * 1024 * 1024;

function lockTooLarge(size: number, file: string): SyncError {
  return new SyncError(
    'SYNC_LOCK_INVALID',
    `${LOCK_FILE} is ${size} bytes, larger than the ${MAX_LOCK_BYTES / 1024 / 1024} MiB a lock of a million files takes: it was not read, nothing was written`,
    {
      path: LOCK_FILE,
      position: { file, line: 1, column: 1 },
      hint: `check what was committed as ${LOCK_FILE} (\`git log -p -- ${LOCK_FILE}\`); if it is damaged, restore it from git`,
    },
  );
}

/** The last lock parsed by `readLock` (a LockFile is read-only, so it can be handed out twice). */
let lastRead:
  | {
      readonly file: string;
      readonly text: string;
      /** Its stat identity when read, if it had settled then. */
      readonly identity: string | undefined;
      readonly lock: LockFile;
    }
  | undefined;

/**
 * Writes the lock atomically and durably, only when its bytes change. Returns true when it was written.
 * `previous`: the lock this run read; when the new one says the same, nothing is serialized or written (a
 * hand-reformatted lock file is then left as it is).
 */
export function writeLock(projectRoot: string, lock: LockFile, previous?: LockFile): boolean {
  // The lock this run read says the same: no need to serialize 10,000 entries to find out.
  if (previous !== undefined && sameLock(previous, lock)) return false;
  const text = serializeLock(lock);
  try {
    if (readFileSync(`${projectRoot}/${LOCK_FILE}`, 'utf8') === text) return false;
  } catch {
    // missing or unreadable: write it
  }
  writeFileAtomic(projectRoot, LOCK_FILE, Buffer.from(text), 0o644, true);
  return true;
}
