/**
 * Nothing re-rendered that did not change (issue 13). Each planned file gets an input key, made of hashes of
 * everything its output depends on. A cache beside the git cache (`<cache>/render/<project>.tsv`) keeps,
 * per path, the last key and the hash of the output it gave; when the next plan finds the same key, the
 * output's hash is known and the file is rendered only if its bytes are read (a diff, a write): `status`
 * and `apply` on an unchanged project render nothing. The cache is not the lock: keys change when outputs
 * do not (a new project becomes an old one, a new engine version), and the lock is committed.
 *
 * The key of a file: the engine version; the template's identity as templates see it (`$template`), its
 * resolved settings, `$metadata` and `$project`; strictness and delimiters; the bytes of every template
 * file that is not an output (partials, hooks, template.json, the schema); and the file's own bytes. A file
 * whose text calls `epp(` other than with a literal `partials/...` path may read any file of its template,
 * so its key takes every output file's bytes as well. A file's bytes enter its key as their SHA-256, which
 * the digest record (sync/digests.ts) knows without reading while the file's stat is unchanged. Templates
 * whose output could depend on anything else are always rendered: untrusted ones (rendered in the
 * sandbox), those with JavaScript hooks (they may read anything), and those with a `before_file_render`
 * hook (settings per file).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readRecordLines, writeRecordLines } from '../shared/record-lines.js';
import type { FileDigests, KnownDigest } from '../sync/digests.js';
import { isSha256Hex, sha256 } from '../sync/hash.js';
import { engineVersion } from '../version.js';
import type { DataMap, LoadedTemplate, TemplateFile } from './model.js';
import { cachedPlannedFile, type RenderContext, renderFileInto } from './render-files.js';
import type { PlannedFile, Problem } from './render-plan.js';
import { sourceIdentity } from './sources/index.js';
import { templateFileBytes } from './template-file-cache.js';
import { identityWhenListed } from './template-outputs.js';

/** What the cache says of a path: the input key of its last render and that output's SHA-256. */
export interface CachedRender {
  readonly input: string;
  readonly hash: string;
}

export type RenderCache = ReadonlyMap<string, CachedRender>;

/** The cache's first line: its format and version (a cache of another version is ignored). */
const HEADER = 'pantograph-render 3';
const MAX_CACHE_SIZE = 256 * 1024 * 1024;

/** The cache file of a project: one per project root. */
export function renderCacheFile(cacheDir: string, root: string): string {
  return join(cacheDir, 'render', `${projectId(root)}.tsv`);
}

/** The digest record of a project (sync/digests.ts): one per project root, beside its render cache. */
export function digestsFile(cacheDir: string, root: string): string {
  return join(cacheDir, 'digests', `${projectId(root)}.tsv`);
}

function projectId(root: string): string {
  return createHash('sha256').update(root).digest('hex').slice(0, 32);
}

/** The project's render cache; empty when absent, unreadable or not ours (a cache is never trusted). */
export function readRenderCache(file: string): Map<string, CachedRender> {
  const cache = new Map<string, CachedRender>();
  readRecordLines(file, HEADER, 2, MAX_CACHE_SIZE, ([path, input, hash]) => {
    // A key is only ever compared with one computed now; the hash is trusted as an output's, so checked.
    if (input!.length === FILE_KEY_LENGTH && isSha256Hex(hash!))
      cache.set(path!, { input: input!, hash: hash! });
  });
  return cache;
}

/**
 * Writes the cache from a plan's files (those with a key and a known hash), unless it would say what it
 * says already. Never fails the command: a cache that cannot be written only costs time.
 */
export function writeRenderCache(
  file: string,
  previous: RenderCache,
  files: readonly { readonly path: string; readonly input?: string; readonly hash?: string }[],
): void {
  const recorded = (f: (typeof files)[number]) =>
    f.input !== undefined && f.hash !== undefined && f.hash !== '';
  let count = 0;
  let same = true;
  for (const f of files) {
    if (!recorded(f)) continue;
    count++;
    const old = previous.get(f.path);
    if (old === undefined || old.input !== f.input || old.hash !== f.hash) {
      same = false;
      break;
    }
  }
  if (same && count === previous.size) return;
  const entries = files.filter(recorded).map((f) => [f.path, [f.input!, f.hash!]] as const);
  writeRecordLines(file, HEADER, entries);
}

/** A file with its input key: the cached output's hash when the key is the cache's, else rendered now. */
export function keyedFile(
  ctx: RenderContext,
  f: TemplateFile,
  baseKey: string,
  cache: RenderCache,
  problems: Problem[],
  digests?: FileDigests,
): PlannedFile | undefined {
  let input: string;
  try {
    input = fileKey(baseKey, ctx.template, f, digests);
  } catch {
    return renderFileInto(ctx, f, problems); // reports why it cannot be read
  }
  const cached = cache.get(f.output);
  if (cached?.input === input) return cachedPlannedFile(ctx, f, input, cached.hash);
  const planned = renderFileInto(ctx, f, problems);
  // Hashed here, once: status uses this hash, and the cache records it.
  return planned && { ...planned, input, hash: planned.empty ? '' : sha256(planned.content) };
}

/** Whether a template's outputs may come from the cache. */
export function cacheable(t: LoadedTemplate): boolean {
  if (!t.source.trusted || t.hooks.before_file_render) return false;
  return !Object.values(t.hooks).some((h) => h?.path.endsWith('.mjs'));
}

export interface TemplateInputs {
  readonly template: LoadedTemplate;
  readonly settings: DataMap;
  readonly metadata: DataMap;
  readonly projectName: string;
  readonly isNew: boolean;
  readonly strict: boolean;
}

/** The part of every file's key its template gives (computed once per plan and template). */
export function templateKey(inputs: TemplateInputs): string {
  const t = inputs.template;
  const hash = createHash('sha256');
  hash.update(
    stableJson([
      'pantograph-render-2',
      engineVersion(),
      { name: t.name, version: t.manifest.version ?? null, source: sourceIdentity(t.source.spec) },
      inputs.settings,
      inputs.metadata,
      { name: inputs.projectName, is_new: inputs.isNew },
      inputs.strict,
      t.manifest.delimiters ?? null,
    ]),
  );
  hash.update(supportDigest(t));
  return hash.digest('hex');
}

/**
 * The key of one file: its template's key, how its source is read (a `files/` or a `files_init/` file, a
 * template or a file copied as it is: all that tells its source from another of the same output path) and
 * its own bytes' SHA-256, joined rather than hashed again (a hash per file was ~5% of a 10,000-file
 * `status`). 128 bits of each hash keep accidental collisions out of reach. Throws when a file cannot be read.
 */
export function fileKey(base: string, t: LoadedTemplate, file: TemplateFile, digests?: FileDigests): string {
  const digest = templateFileDigest(file, digests);
  const own =
    file.isTemplate && (digest.flags & READS_OUTPUTS) !== 0
      ? sha256(Buffer.from(digest.hash + outputsDigest(t, digests)))
      : digest.hash;
  const how = (file.kind === 'init' ? 2 : 0) + (file.isTemplate ? 1 : 0);
  return `${base.slice(0, 32)}${how}${own.slice(0, 32)}`;
}

/** The length of a key {@link fileKey} makes. */
const FILE_KEY_LENGTH = 65;

/** A flag of a template file's digest: its text may read other output files (see `readsOutputs`). */
const READS_OUTPUTS = 1;

/**
 * A template file's SHA-256 (and whether it may read other outputs): from the digest record while its
 * stat is unchanged, else read. The stat is taken before the read: were the file written in between, the
 * recorded stat would be older than the bytes and never match again. The stat is the one the template's
 * walk took, when it did.
 */
function templateFileDigest(file: TemplateFile, digests: FileDigests | undefined): KnownDigest {
  const stat = digests && (identityWhenListed(file) ?? statSync(file.absPath));
  const known = stat === undefined ? undefined : digests!.lookup(file.absPath, stat);
  if (known !== undefined) return known;
  const bytes = templateFileBytes(file);
  const flags = file.isTemplate && readsOutputs(bytes.toString('latin1')) ? READS_OUTPUTS : 0;
  const digest = { hash: sha256(bytes), flags };
  if (stat !== undefined) digests!.record(file.absPath, stat, digest.hash, digest.flags);
  return digest;
}

/**
 * Whether a template's text may read another output file with `epp()`/`inline_epp()`: any call but one
 * with a literal `partials/...` path (partials are in every file's key already).
 */
function readsOutputs(text: string): boolean {
  const calls = text.split('epp(').length - 1;
  if (calls === 0) return false;
  const partials = text.match(/(?<![\w:])epp\(\s*(['"])partials\/[^'"$]*\1/g)?.length ?? 0;
  return partials !== calls;
}

const supportDigests = new WeakMap<LoadedTemplate, string>();
const outputDigests = new WeakMap<LoadedTemplate, string>();

/** Every template file that is not an output (or a test): partials, hooks, template.json, the schema. */
function supportDigest(t: LoadedTemplate): string {
  let digest = supportDigests.get(t);
  if (digest === undefined) {
    const hash = createHash('sha256');
    walk(t.dir, '', (rel, abs) => {
      if (/^(files|files_init|tests)(\/|$)/.test(rel)) return false;
      hash.update(rel).update('\0').update(readFileSync(abs)).update('\0');
      return true;
    });
    digest = hash.digest('hex');
    supportDigests.set(t, digest);
  }
  return digest;
}

/** Every output file's bytes (as their SHA-256): what a file calling epp() may read. */
function outputsDigest(t: LoadedTemplate, digests: FileDigests | undefined): string {
  let digest = outputDigests.get(t);
  if (digest === undefined) {
    const hash = createHash('sha256');
    for (const f of t.files) hash.update(f.source).update('\0').update(templateFileDigest(f, digests).hash);
    digest = hash.digest('hex');
    outputDigests.set(t, digest);
  }
  return digest;
}

/** Files under `dir` in name order; `visit` returns false to skip a directory. Symlinks are not followed. */
function walk(dir: string, prefix: string, visit: (rel: string, abs: string) => boolean): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const rel = prefix === '' ? e.name : `${prefix}/${e.name}`;
    const abs = join(dir, e.name);
    if (e.isDirectory()) {
      if (!/^(files|files_init|tests)$/.test(rel)) walk(abs, rel, visit);
    } else if (e.isFile()) visit(rel, abs);
  }
}

/**
 * Data as text that is equal exactly when the data is: object keys sorted, and every scalar tagged with
 * its type (the integer 1, the float 1.0 and the string "1" all differ, as they do to a template).
 */
export function stableJson(value: unknown): string {
  if (value === null || value === undefined) return 'n';
  switch (typeof value) {
    case 'bigint':
      return `i${value}`;
    case 'number':
      return `f${value}`;
    case 'boolean':
      return value ? 't' : 'F';
    case 'string':
      return `s${JSON.stringify(value)}`;
    default:
      break;
  }
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}
