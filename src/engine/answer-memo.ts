/**
 * An answer derived from a plan, kept while nothing it came from changed (issue 13): `status` gives the
 * answer it gave last time without planning, `apply` the one where it had nothing to do
 * (src/cli/command-memo.ts); most of a `status` on a small project was loading and planning what had not
 * changed. Any client of the library may keep its own answers (text it printed, a report as JSON) under
 * its own request.
 *
 * An answer is kept with the stat identity (sync/stat-identity.ts) of everything it came from: the running
 * code, `.sync.yml`, `metadata.json`, the lock, its journal and its run lock, every entry of every
 * source's directory (a file added, removed or changed anywhere in a template repository changes one),
 * and every path the answer was about, with its parent directories. It is kept only when the plan was made
 * from files alone (`PlanInputs`: no JavaScript hook, no untrusted template, git sources at their locked
 * commits) and every one of those identities is settled: older than the run by SETTLE_MS, so that a change
 * made during the run, or within the same timestamp tick, changes an identity. The next lookup with the
 * same request, engine and environment compares the identities, and gives the kept answer only if every
 * one is the same. The memo is a cache in Pantograph's cache directory: its shape is checked, and losing
 * it costs one plan. It is written in plain text: a request must hold no secret.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
// Light modules only: a kept answer is given before the rest of Pantograph is loaded (src/cli/fast-answer.ts).
import { JOURNAL_FILE, LOCK_FILE, POSTED_FILE, RUN_LOCK_FILE, SYNC_FILE } from '../shared/project-files.js';
import { identityOf, isSettled } from '../sync/stat-identity.js';
import { engineVersion } from '../version.js';
import { cacheRoot } from './cache-dir.js';
import type { PlanInputs } from './project-plan.js';

/** The memo's format and version (a memo of another version is ignored). */
const FORMAT = 'pantograph-answer-memo 2';
/** A larger memo is not read (about 60 bytes per path: some 250,000 paths). */
const MAX_MEMO_SIZE = 16 * 1024 * 1024;
/** The identity of a path that does not exist. */
const ABSENT = '-';
/** Stands for an identity not settled yet: a memo holding one is not written. */
const UNSETTLED = '?';

interface Memo {
  readonly format: string;
  /** The request, as JSON (the memo's file name is a short hash of it). */
  readonly request: string;
  /** Everything else the answer depends on besides files: the engine and the environment. */
  readonly key: string;
  /** The project root the answer was about. */
  readonly root: string;
  readonly sourceDirs: readonly string[];
  /** Project-relative paths the answer was about. */
  readonly paths: readonly string[];
  /** The identity of every dependency, in the order {@link visitDependencies} lists them. */
  readonly identities: readonly string[];
  readonly answer: string;
}

export interface AnswerMemo {
  /** The kept answer, when every dependency is as it was; else undefined. */
  lookup(): string | undefined;
  /**
   * Keeps `answer` as the answer about the project at `root` (absolute), planned from `inputs` (none:
   * not from files alone) and about `paths`, when every dependency is settled. Never throws.
   */
  save(root: string, inputs: PlanInputs | undefined, paths: readonly string[], answer: string): void;
}

/**
 * The memo of the answers to `request` (any JSON data naming the question: its kind, its arguments, where
 * it was asked), with the same engine and the environment variables Pantograph reads. `startedMs`: when
 * the run started.
 */
export function answerMemo(
  request: unknown,
  env: NodeJS.ProcessEnv = process.env,
  startedMs = Date.now(),
): AnswerMemo {
  const asked = JSON.stringify(request);
  const file = join(cacheRoot(env), 'answers', `${fnv1a64(asked)}.json`);
  const key = JSON.stringify({ engine: engineVersion(), code: codeIdentity(), env: relevantEnv(env) });
  return {
    lookup() {
      const memo = readMemo(file); // nothing below throws: identity() says what it cannot stat
      if (memo === undefined || memo.request !== asked || memo.key !== key) return undefined;
      const then = memo.identities;
      let i = 0;
      const same = visitDependencies(memo.root, memo.sourceDirs, memo.paths, (id) => id === then[i++]);
      if (same && i === then.length) return memo.answer;
      // Stale for good (a ctime never goes back): removed, so that runs until the next clean answer (a
      // project with drift, say) do not compare it again.
      try {
        rmSync(file, { force: true });
      } catch {
        // left for the next clean answer to replace
      }
      return undefined;
    },
    save(root, inputs, paths, answer) {
      if (inputs === undefined) return;
      try {
        const sorted = [...new Set(paths)].sort();
        const identities: string[] = [];
        // A later run keeps it once all has settled; nor is an answer kept where something could not be stat'ed.
        const keepable = (id: string) => id !== UNSETTLED && !id.startsWith('!') && identities.push(id) > 0;
        if (!visitDependencies(root, inputs.sourceDirs, sorted, keepable, startedMs)) return;
        const memo: Memo = {
          format: FORMAT,
          request: asked,
          key,
          root,
          sourceDirs: inputs.sourceDirs,
          paths: sorted,
          identities,
          answer,
        };
        mkdirSync(dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(memo));
        renameSync(tmp, file);
      } catch {
        // a memo that cannot be written only costs a plan next time
      }
    },
  };
}

/**
 * Hands `take` the identity of every dependency, in a fixed order, until it returns false: the project's
 * own files, each path after its parent directories (what users change most: a stale memo is told by its
 * first entries), then each source's directory walked (names sorted, each followed by its identity). With
 * `settledBefore`, an identity not settled by then is {@link UNSETTLED}. Returns whether `take` took all.
 */
function visitDependencies(
  root: string,
  sourceDirs: readonly string[],
  paths: readonly string[],
  take: (id: string) => boolean,
  settledBefore?: number,
): boolean {
  // The run lock too: while a run that writes holds it, no kept answer is given (the run may be writing).
  for (const name of [SYNC_FILE, 'metadata.json', LOCK_FILE, JOURNAL_FILE, POSTED_FILE, RUN_LOCK_FILE]) {
    if (!take(identity(join(root, name), settledBefore))) return false;
  }
  const parents = new Set<string>();
  for (const path of paths) {
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
      const parent = path.slice(0, i);
      if (!parents.has(parent)) {
        parents.add(parent);
        if (!take(identity(join(root, parent), settledBefore))) return false;
      }
    }
    if (!take(identity(join(root, path), settledBefore))) return false;
  }
  for (const dir of sourceDirs) {
    const self = identity(dir, settledBefore);
    if (!take(self)) return false;
    if (self !== ABSENT && !walk(dir, take, settledBefore, true)) return false;
  }
  return true;
}

/**
 * Every entry under `dir`, depth first, names sorted: its name, then its identity (see above). At a
 * source's top (`sourceRoot`), entries named `.*` are left out: no template is named so (sources/index.ts),
 * and a template repository's own `.git` would be thousands of files that change with every fetch.
 */
function walk(
  dir: string,
  take: (id: string) => boolean,
  settledBefore: number | undefined,
  sourceRoot = false,
): boolean {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return take(ABSENT); // not a directory (any more): differs from the listing recorded
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // `dir` is a normalized path and an entry's name one segment: concatenated, not `join`ed, whose
  // normalizing was ~5% of a `status` answered from its memo (hundreds of entries in the default templates).
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  for (const entry of entries) {
    if (sourceRoot && entry.name.startsWith('.')) continue;
    const path = prefix + entry.name;
    // A name as `/name`: never taken for an identity, nor for the marks of one (`?`, `!...`).
    if (!take(`/${entry.name}`) || !take(identity(path, settledBefore))) return false;
    if (entry.isDirectory() && !walk(path, take, settledBefore)) return false;
  }
  return true;
}

function identity(path: string, settledBefore: number | undefined): string {
  let stat: import('node:fs').Stats | undefined;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch (e) {
    return `!${(e as NodeJS.ErrnoException).code ?? 'error'}`; // not a memo's to judge: the plan will say
  }
  if (stat === undefined) return ABSENT;
  if (settledBefore !== undefined && !isSettled(stat, settledBefore)) return UNSETTLED;
  return `${stat.mode}:${identityOf(stat)}`;
}

/**
 * The engine: the command line's bundle (`dist/cli/main.cjs`, beside this code in both of the command
 * line's bundles that read memos), else the file this code runs from (the library's bundle; the sources,
 * run by tests). A new build is another engine.
 */
function codeIdentity(): string {
  const here = fileURLToPath(import.meta.url);
  const bundle = join(dirname(here), 'main.cjs');
  const stat = lstatSync(bundle, { throwIfNoEntry: false }) ?? lstatSync(here, { throwIfNoEntry: false });
  return stat === undefined ? ABSENT : identityOf(stat);
}

/**
 * The environment variables an answer may depend on: Pantograph's own, the cache's, colours. Not git's: a
 * kept answer's git sources are trees in the cache at the commits the lock names (watched as files), and
 * git's variables may hold secrets, which the memo, written in plain text, must not.
 */
function relevantEnv(env: NodeJS.ProcessEnv): [string, string][] {
  return Object.entries(env)
    .filter(
      (e): e is [string, string] =>
        e[1] !== undefined && /^(PANTOGRAPH_|XDG_CACHE_HOME$|HOME$|NO_COLOR$|FORCE_COLOR$)/.test(e[0]),
    )
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** A short file name for a request (FNV-1a, 64 bits): not a secret, and the memo checks its request. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

function readMemo(file: string): Memo | undefined {
  let text: string;
  try {
    if (lstatSync(file).size > MAX_MEMO_SIZE) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let memo: Partial<Memo> | null;
  try {
    memo = JSON.parse(text) as Partial<Memo> | null;
  } catch {
    return undefined;
  }
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (
    typeof memo !== 'object' ||
    memo === null ||
    memo.format !== FORMAT ||
    typeof memo.request !== 'string' ||
    typeof memo.key !== 'string' ||
    typeof memo.root !== 'string' ||
    typeof memo.answer !== 'string' ||
    !strings(memo.sourceDirs) ||
    !strings(memo.paths) ||
    !strings(memo.identities)
  ) {
    return undefined;
  }
  return memo as Memo;
}
