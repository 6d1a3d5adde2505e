/**
 * The previous template output of a managed file (DESIGN 8), so that a conflict can be three-way merged
 * instead of left to the user whole. The lock records what was applied: each source with its commit,
 * each template with its version and resolved settings, and per file the hash of its rendered output.
 * The previous output is reproduced by planning the project again:
 *
 * - git sources at their locked commit (whatever `ref` says now);
 * - default and filesystem sources only for templates whose version is the locked one (their older
 *   content cannot be recovered);
 * - the applied list the lock records, each template's settings replaced whole by its locked ones.
 *
 * Metadata, hooks and `$project['is_new']` are not in the lock, so a reproduction is only trusted when its
 * hash equals the locked rendered hash: a wrong merge base is never used, the caller then falls back to
 * `<path>.pantograph-new`. An output `resolve` accepted is taken from the cache first (merge-bases.ts). The engine does not depend on `src/sync`: the lock is taken structurally.
 */
import { createHash } from 'node:crypto';
import { sameLocation } from '../shared/url-credentials.js';
import { mergeBase } from './merge-bases.js';
import {
  type Data,
  type DataMap,
  ReplaceValue,
  type SourceSpec,
  type SyncDataMap,
  type TemplateRef,
} from './model.js';
import { plan } from './plan.js';
import { loadProject, type Project, type ProjectOptions } from './project.js';
import type { PlannedSource } from './render-plan.js';

/** What this module needs of `.pantograph.lock` (the sync library's `LockFile` fits). */
export interface LockedState {
  readonly sources: readonly PlannedSource[];
  readonly templates: readonly {
    readonly name: string;
    readonly version?: string;
    readonly source: number;
    readonly settings: Readonly<Record<string, unknown>>;
  }[];
  readonly files: ReadonlyMap<
    string,
    { readonly template: string; readonly rendered: string; readonly kind: string }
  >;
}

/** Reproduces the previous output of a path, or undefined when it cannot be reproduced exactly. */
export type PreviousOutput = (path: string) => Promise<Uint8Array | undefined>;

/**
 * The locked commit of a git source, for `loadProject`'s `lockedCommit`: the source with the same location
 * in the lock (credentials aside: a rotated token keeps the commit, and an older lock holding one reads), and (unless `anyRef`) the same `ref`, so that changing `ref` in `.sync.yml` moves it.
 */
export function lockedCommitOf(
  lock: Pick<LockedState, 'sources'> | undefined,
  anyRef = false,
): (spec: SourceSpec) => string | undefined {
  return (spec) => {
    if (spec.type !== 'git' || !lock) return undefined;
    const locked = lock.sources.find(
      (s) => s.type === 'git' && sameLocation(s.location, spec.location) && (anyRef || s.ref === spec.ref),
    );
    return locked?.commit;
  };
}

/**
 * A `previousOutput` for sync's `apply`, over the project at `root` as the lock recorded it. Planning
 * happens once, on the first call (only conflicts call it); any failure means "cannot reproduce".
 */
export function previousOutputFor(
  root: string,
  lock: LockedState,
  options: ProjectOptions = {},
): PreviousOutput {
  let outputs: Promise<Map<string, Uint8Array>> | undefined;
  return async (path) => {
    const locked = lock.files.get(path);
    if (!locked || locked.kind !== 'file' || locked.rendered === '') return undefined;
    // An output `resolve` accepted is kept by its hash: the lock's settings may not reproduce it.
    const kept = mergeBase(locked.rendered);
    if (kept !== undefined) return kept;
    outputs ??= reproduce(root, lock, options).catch(() => new Map());
    return (await outputs).get(path);
  };
}

/** Every file of the locked plan that could be reproduced exactly, by path. */
async function reproduce(
  root: string,
  lock: LockedState,
  options: ProjectOptions,
): Promise<Map<string, Uint8Array>> {
  const project = await loadProject(root, { ...options, lockedCommit: lockedCommitOf(lock, true) });
  const reproducible = new Set(
    lock.templates.filter((t) => sameTemplate(project, lock, t)).map((t) => t.name),
  );
  const found = new Map<string, Uint8Array>();
  if (reproducible.size === 0) return found;
  // The lock does not say whether the project was new when a file was last rendered: try both. A V1
  // project's files do not depend on it (only which init files are listed), and Ruby renders once.
  for (const isNew of project.v1 ? [project.isNew] : [false, true]) {
    // A V1 project is its repository's one template, settings in `.sync.yml` as they are now: with the
    // repository at the locked commit, it renders what was applied unless `.sync.yml` or metadata.json
    // changed since (then the hashes differ and nothing is used).
    const locked = project.v1 ? project : lockedProject(project, lock, reproducible, isNew);
    const previous = await plan(locked);
    for (const file of previous.files) {
      const entry = lock.files.get(file.path);
      if (!entry || found.has(file.path) || file.empty || file.template !== entry.template) continue;
      if (!reproducible.has(file.template)) continue;
      if (sha256(file.content) === entry.rendered) found.set(file.path, file.content);
    }
    if ([...lock.files].every(([path, f]) => f.kind !== 'file' || found.has(path))) break;
  }
  return found;
}

/**
 * The template available now is the one the lock recorded: same source, and same commit or version. A V1
 * project's one template is its repository (`project.v1.source`), which has no version: a git one is
 * compared by commit, a directory is taken as it is (the hashes decide).
 */
function sameTemplate(project: Project, lock: LockedState, t: LockedState['templates'][number]): boolean {
  const available = project.available.get(t.name);
  const now = project.v1
    ? { source: project.v1.source, version: undefined }
    : available && { source: available.source, version: available.manifest.version };
  const was = lock.sources[t.source];
  if (!now || !was) return false;
  const spec = now.source.spec;
  if (spec.type !== was.type || !sameLocation(spec.location, was.location)) return false;
  if (spec.type === 'git') return was.commit !== undefined && now.source.commit === was.commit;
  return now.version === t.version;
}

/** The project with the lock's applied list and settings (each replacing the resolved value whole). */
function lockedProject(
  project: Project,
  lock: LockedState,
  names: ReadonlySet<string>,
  isNew: boolean,
): Project {
  const position = { file: project.config.file, line: 1, column: 1 };
  const ref = (name: string, i: number): TemplateRef => ({
    name,
    pointer: `/pdk_template/templates/${i}`,
    position,
  });
  const templates = lock.templates.filter((t) => names.has(t.name));
  const listed = new Set(templates.map((t) => t.name));
  const excluded = [...project.available.values()]
    .filter((t) => t.manifest.always_apply && !listed.has(t.name))
    .map((t, i) => ref(t.name, i));
  const settings: Record<string, SyncDataMap> = {};
  for (const t of templates) {
    const section: SyncDataMap = {};
    for (const [k, v] of Object.entries(t.settings)) section[k] = new ReplaceValue(fromJson(v));
    settings[t.name] = section;
  }
  const applied = templates.map((t) => project.available.get(t.name)!);
  return {
    ...project,
    isNew,
    applied,
    config: { ...project.config, templates: templates.map((t, i) => ref(t.name, i)), excluded, settings },
    problems: [],
  };
}

/** Locked JSON back to settings data: integral numbers are Integers (a Float `1.0` cannot be told apart). */
function fromJson(value: unknown): Data {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(fromJson);
  const out: DataMap = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(out, k, {
      value: fromJson(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
