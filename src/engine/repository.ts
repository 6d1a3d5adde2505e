/**
 * Loading one template directory (DESIGN section 3): `template.json` checked against the shipped schema,
 * `template_schema.json` compiled, `files/` and `files_init/` listed, `partials/` and `hooks/` found.
 * Problems are collected, never thrown; a template comes back whenever its `template.json` could be read,
 * with whatever was valid in it. Symlinks may point anywhere inside the template's repository, never out.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { delimitersProblem } from '../epp/lexer/delimiters.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { shownName } from '../shared/quoted-name.js';
import { describeReserved, RESERVED_NAMES_HINT, reservedSegment } from '../shared/reserved-names.js';
import { satisfies } from '../shared/semver.js';
import { identityOf } from '../sync/digests.js';
import { engineVersion } from '../version.js';
import { EngineError, type EngineErrorCode, problem } from './errors.js';
import { parseJsonData } from './json-data.js';
import { compileSettingsSchema, shippedSchema, violationProblems } from './json-schema.js';
import {
  type Data,
  type DataMap,
  HOOK_NAMES,
  type HookFile,
  type HookName,
  type LoadedTemplate,
  type Position,
  type SharedSettingDecl,
  type TemplateFile,
  type TemplateLocation,
  type TemplateManifest,
  type V1SettingRule,
} from './model.js';
import type { Problem } from './render-plan.js';
import { TEMPLATE_NAME } from './sources/index.js';
import { type PositionIndex, toJson } from './yaml-data.js';

export interface TemplateLoad {
  /** Undefined only when `template.json` could not be read or parsed. */
  readonly template: LoadedTemplate | undefined;
  /** Every problem found, all at once. */
  readonly problems: readonly Problem[];
}

/** Loads the template at `location` (from `findTemplate` or `listTemplates`). */
export function loadTemplate(location: TemplateLocation): TemplateLoad {
  const head = readTemplateHead(location);
  if (head.head === undefined) return { template: undefined, problems: head.problems };
  const rest = completeTemplate(head.head);
  return { template: rest.template, problems: [...head.problems, ...rest.problems] };
}

/**
 * What decides whether a template loads at all, and whether it is always applied: its name, where it
 * lives, and `template.json`. A project reads this much of every template its sources offer, and the rest
 * (`completeTemplate`: the settings schema, compiled; the files listed; hooks) only of those it applies
 * or asks about: half the default templates are not applied to a module, and reading their schemas and
 * trees was ~20% of a `pantograph status`.
 */
export interface TemplateHead {
  readonly location: TemplateLocation;
  readonly name: string;
  readonly manifest: TemplateManifest;
  readonly manifestFile: string;
  readonly manifestPositions: PositionIndex;
  /** The real path of the template's repository: nothing of it may lead out of there. */
  readonly repoRoot: string;
}

/** Reads a template's head; `head` is undefined when the template cannot be loaded (see `problems`). */
export function readTemplateHead(location: TemplateLocation): {
  readonly head: TemplateHead | undefined;
  readonly problems: readonly Problem[];
} {
  const problems: Problem[] = [];
  const { dir, source } = location;
  const name = basename(dir);
  const manifestFile = join(dir, 'template.json');
  if (!TEMPLATE_NAME.test(name)) {
    problems.push(
      problem(
        'error',
        'TEMPLATE_NAME',
        `template directory '${name}' is not snake_case`,
        at(manifestFile),
        'use lower-case letters, digits and underscores',
      ),
    );
  }
  const repoRoot = realpathOrSelf(source.dir);
  if (!inside(realpathOrSelf(dir), repoRoot)) {
    problems.push(
      problem('error', 'TEMPLATE_SYMLINK', `template '${name}' is a symlink out of its repository`, at(dir)),
    );
    return { head: undefined, problems };
  }
  // template.json and template_schema.json may be links too, but not out of the repository.
  if (new TreeWalker(repoRoot, problems).follow(manifestFile) === undefined)
    return { head: undefined, problems };
  const manifestJson = readJson(manifestFile, 'TEMPLATE_JSON', problems);
  if (!manifestJson) return { head: undefined, problems };
  const { data, positions, text } = manifestJson;
  problems.push(
    ...violationProblems(
      shippedSchema('template').validate(data, text),
      positions,
      'TEMPLATE_INVALID',
      (p) => `template.json${p}`,
    ),
  );
  // A template that means to be always applied but says so wrongly (`"always_apply": "yes"`) must not be
  // silently left out: it is not loaded, so its problem is an error wherever the project is used.
  if (isPlainObject(data) && data.always_apply !== undefined && typeof data.always_apply !== 'boolean') {
    return { head: undefined, problems };
  }
  const manifest = readManifest(data, name);
  checkRequires(manifest, name, positions, problems);
  return {
    head: { location, name, manifest, manifestFile, manifestPositions: positions, repoRoot },
    problems,
  };
}

/** The rest of a template whose head was read: its schema, files, partials and hooks. */
export function completeTemplate(head: TemplateHead): TemplateLoad {
  const problems: Problem[] = [];
  const { location, name, manifest, manifestFile, repoRoot } = head;
  const { dir, source } = location;
  const walker = new TreeWalker(repoRoot, problems);

  let schema: Readonly<Record<string, unknown>> | undefined;
  let schemaFile: string | undefined;
  let schemaPositions: PositionIndex | undefined;
  const schemaPath = join(dir, 'template_schema.json');
  if (exists(schemaPath) && walker.follow(schemaPath) !== undefined) {
    schemaFile = schemaPath;
    const schemaJson = readJson(schemaPath, 'TEMPLATE_SCHEMA', problems);
    if (schemaJson) {
      schemaPositions = schemaJson.positions;
      try {
        schema = compileSettingsSchema(schemaJson.data, schemaPath, schemaJson.positions).schema;
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        problems.push(...e.problems);
      }
    }
  }

  const files = [
    ...listOutputs(dir, 'files', 'file', walker),
    ...listOutputs(dir, 'files_init', 'init', walker),
  ];
  checkOutputs(name, files, problems);
  const partials = walker.list(dir, 'partials').map((f) => f.rel);
  const hooks = readHooks(dir, walker, problems);

  const template: LoadedTemplate = {
    name,
    dir,
    manifest,
    manifestFile,
    manifestPositions: head.manifestPositions,
    schema,
    schemaFile,
    schemaPositions,
    files,
    partials,
    hooks,
    sourceIndex: source.index,
    source,
  };
  return { template, problems };
}

/** `requires`: the Pantograph versions the template works with; outside them it is an error. */
function checkRequires(
  manifest: TemplateManifest,
  name: string,
  positions: PositionIndex,
  problems: Problem[],
): void {
  const range = manifest.requires;
  if (range === undefined) return;
  const version = engineVersion();
  const ok = satisfies(version, range);
  if (ok === true) return;
  // Positions only where there is a problem: finding them reads the file again (json-data.ts).
  const position = positions.positionOf('/requires');
  if (ok === undefined) {
    problems.push(
      problem(
        'error',
        'TEMPLATE_INVALID',
        `template '${name}': requires '${range}' is not a version range`,
        position,
        "write a semver range, e.g. '>=0.1.0 <1.0.0'",
      ),
    );
  } else if (!ok) {
    problems.push(
      problem(
        'error',
        'TEMPLATE_REQUIRES',
        `template '${name}' requires Pantograph ${range}; this is Pantograph ${version}`,
        position,
        'upgrade Pantograph, or use a version of the template made for this one',
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// JSON files

/** Reads a JSON file strictly, with positions and bigint integers (see json-data.ts). */
function readJson(
  file: string,
  code: EngineErrorCode,
  problems: Problem[],
): { data: Data; positions: PositionIndex; text: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    problems.push(
      problem('error', 'TEMPLATE_READ', `cannot read ${file}: ${(e as Error).message}`, at(file)),
    );
    return undefined;
  }
  const parsed = parseJsonData(text, file, code);
  problems.push(...parsed.problems);
  if (parsed.data === undefined) return undefined;
  return { data: parsed.data, positions: parsed.positions, text };
}

// ---------------------------------------------------------------------------------------------------
// template.json

/** `v1_settings` as rules; entries of the wrong shape (reported by the schema check) are left out. */
function v1Rules(value: Data | undefined): Record<string, V1SettingRule> {
  const out: Record<string, V1SettingRule> = {};
  if (!isMap(value)) return out;
  for (const [key, rule] of Object.entries(value)) {
    if (rule === null) out[key] = null;
    else if (typeof rule === 'string') out[key] = { to: rule };
    else if (isMap(rule) && typeof rule.to === 'string') {
      const entries = isMap(rule.boolean_entries) ? rule.boolean_entries : {};
      const booleanEntries = Object.fromEntries(
        Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      out[key] = {
        to: rule.to,
        ...(typeof rule.strip_suffix === 'string' ? { stripSuffix: rule.strip_suffix } : {}),
        ...(Object.keys(booleanEntries).length > 0 ? { booleanEntries } : {}),
      };
    }
  }
  return out;
}

/** The manifest with defaults; fields of the wrong type (already reported) are left at their default. */
function readManifest(data: Data, dirName: string): TemplateManifest {
  const m = isMap(data) ? data : {};
  const str = (v: Data | undefined) => (typeof v === 'string' ? v : undefined);
  const strings = (v: Data | undefined) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  const name = str(m.name) ?? dirName;
  const tags = [...new Set([...strings(m.tags), dirName])];
  const shared: Record<string, SharedSettingDecl> = {};
  if (isMap(m.shared_settings)) {
    for (const [key, decl] of Object.entries(m.shared_settings)) {
      if (!isMap(decl)) continue;
      const schema = toJson(decl.schema);
      Object.defineProperty(shared, key, {
        enumerable: true,
        value: {
          description: str(decl.description),
          schema: isPlainObject(schema) ? schema : undefined,
          value: Object.hasOwn(decl, 'value') ? decl.value : undefined,
        } satisfies SharedSettingDecl,
      });
    }
  }
  const delimiters = strings(m.delimiters);
  return {
    name,
    description: str(m.description) ?? name,
    type: str(m.type) ?? 'module',
    tags,
    always_apply: m.always_apply === true,
    default_settings: isMap(m.default_settings) ? m.default_settings : {},
    setting_subscriptions: strings(m.setting_subscriptions),
    shared_settings: shared,
    v1_files: strings(m.v1_files),
    v1_settings: v1Rules(m.v1_settings),
    v1_reads: isMap(m.v1_reads)
      ? Object.fromEntries(Object.entries(m.v1_reads).map(([file, keys]) => [file, strings(keys)]))
      : {},
    v1_defaults: isMap(m.v1_defaults)
      ? Object.fromEntries(Object.entries(m.v1_defaults).map(([file, keys]) => [file, strings(keys)]))
      : {},
    v1_default: m.v1_default === 'managed' || m.v1_default === 'unmanaged' ? m.v1_default : undefined,
    v1_convert_settings: isMap(m.v1_convert_settings) ? m.v1_convert_settings : {},
    version: str(m.version),
    requires: str(m.requires),
    // Invalid delimiters (reported by the schema check) never reach the lexer: an empty one made it loop.
    delimiters:
      delimiters.length === 2 && delimitersProblem(delimiters[0]!, delimiters[1]!) === undefined
        ? [delimiters[0]!, delimiters[1]!]
        : undefined,
  };
}

function isMap(v: Data | undefined): v is DataMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---------------------------------------------------------------------------------------------------
// Files

interface WalkedFile {
  /** POSIX path relative to the template directory, e.g. `files/bin/run.sh`. */
  readonly rel: string;
  readonly abs: string;
  readonly executable: boolean;
  /** The file's stat identity when listed (a link's target's): see sync/digests.ts. */
  readonly identity: string;
}

/** Lists regular files under a template subdirectory, following symlinks that stay in the repository. */
class TreeWalker {
  constructor(
    private readonly repoRoot: string,
    private readonly problems: Problem[],
  ) {}

  list(templateDir: string, sub: string): WalkedFile[] {
    const out: WalkedFile[] = [];
    const start = join(templateDir, sub);
    if (!exists(start)) return out;
    const real = this.follow(start);
    if (real !== undefined && statSync(real).isDirectory()) this.walk(start, real, sub, out, new Set());
    return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  }

  /**
   * Walks `dir`, whose real path is `real`. Only symlinks are resolved (and checked to stay in the
   * repository): the real path of anything else is its real parent's joined with its name, so a template
   * of 10,000 files costs a directory read and one stat per file (for the executable bit), not a
   * `realpath` of every file.
   */
  private walk(dir: string, real: string, rel: string, out: WalkedFile[], seen: ReadonlySet<string>): void {
    if (seen.has(real)) return; // a symlink loop inside the repository
    const inner = new Set(seen).add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const childRel = `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        const target = this.follow(path);
        if (target === undefined) continue;
        const st = statSync(target);
        if (st.isDirectory()) this.walk(path, target, childRel, out, inner);
        else if (st.isFile())
          out.push({
            rel: childRel,
            abs: path,
            executable: (st.mode & 0o111) !== 0,
            identity: identityOf(st),
          });
      } else if (entry.isDirectory()) {
        this.walk(path, join(real, entry.name), childRel, out, inner);
      } else if (entry.isFile()) {
        const stat = lstatSync(path);
        out.push({
          rel: childRel,
          abs: path,
          executable: (stat.mode & 0o111) !== 0,
          identity: identityOf(stat),
        });
      }
    }
  }

  /** The real path of `path`; undefined (and a problem) for a dangling link or one leaving the repository. */
  follow(path: string): string | undefined {
    if (!lstatSync(path).isSymbolicLink()) return realpathOrSelf(path);
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch {
      this.problems.push(problem('error', 'TEMPLATE_SYMLINK', `symlink ${path} points to nothing`, at(path)));
      return undefined;
    }
    if (!inside(real, this.repoRoot)) {
      this.problems.push(
        problem(
          'error',
          'TEMPLATE_SYMLINK',
          `symlink ${path} points outside the template repository (${real})`,
          at(path),
          'templates may only link to files of their own repository',
        ),
      );
      return undefined;
    }
    return real;
  }
}

function listOutputs(
  dir: string,
  sub: 'files' | 'files_init',
  kind: 'file' | 'init',
  walker: TreeWalker,
): TemplateFile[] {
  return walker.list(dir, sub).map((f) => {
    const inner = f.rel.slice(sub.length + 1);
    const isTemplate = inner.endsWith('.epp');
    const file: TemplateFile = {
      source: f.rel,
      absPath: f.abs,
      output: isTemplate ? inner.slice(0, -4) : inner,
      kind,
      executable: f.executable,
      isTemplate,
    };
    identitiesWhenListed.set(file, f.identity);
    return file;
  });
}

/** Each output file's stat identity as the walk found it: the render cache's digest lookup needs no second stat. */
const identitiesWhenListed = new WeakMap<TemplateFile, string>();

/** A template file's stat identity when its template was loaded (taken before any read of its bytes). */
export function identityWhenListed(file: TemplateFile): string | undefined {
  return identitiesWhenListed.get(file);
}

/**
 * No empty names, no reserved paths (in any spelling a file system reads as one: shared/reserved-names.ts),
 * no two files of the template on one output path.
 */
function checkOutputs(name: string, files: readonly TemplateFile[], problems: Problem[]): void {
  const seen = new Map<string, TemplateFile>();
  for (const f of files) {
    const segments = f.output.split('/');
    const reserved = reservedSegment(f.output);
    if (segments.some((s) => s === '')) {
      problems.push(
        problem('error', 'TEMPLATE_RESERVED_PATH', `${f.source} produces no file name`, at(f.absPath)),
      );
    } else if (reserved !== undefined) {
      const how = reserved.because === undefined ? '' : `: ${describeReserved(reserved)}`;
      problems.push(
        problem(
          'error',
          'TEMPLATE_RESERVED_PATH',
          `template '${name}': ${shownName(f.source)} would write ${shownName(f.output)}, which Pantograph never writes${how}`,
          at(f.absPath),
          RESERVED_NAMES_HINT,
        ),
      );
    }
    const other = seen.get(f.output);
    if (other) {
      problems.push(
        problem(
          'error',
          'TEMPLATE_FILE_CONFLICT',
          `${other.source} and ${f.source} both produce ${f.output}`,
          at(f.absPath),
          'remove or rename one of them',
        ),
      );
    } else seen.set(f.output, f);
  }
}

function readHooks(
  dir: string,
  walker: TreeWalker,
  problems: Problem[],
): Partial<Record<HookName, HookFile>> {
  const hooks: Partial<Record<HookName, HookFile>> = {};
  const hooksDir = join(dir, 'hooks');
  if (!exists(hooksDir)) return hooks;
  for (const name of readdirSync(hooksDir).sort()) {
    const path = join(hooksDir, name);
    const real = walker.follow(path);
    if (real === undefined || !statSync(real).isFile()) continue; // subdirectories: helpers of .mjs hooks
    const match = /^(.*)\.(pp|mjs)$/.exec(name);
    const hook = match?.[1] as HookName | undefined;
    if (!match || hook === undefined || !(HOOK_NAMES as readonly string[]).includes(hook)) {
      const stem = match?.[1] ?? name.replace(/\.[^.]*$/, '');
      problems.push(
        problem(
          'error',
          'TEMPLATE_UNKNOWN_HOOK',
          `hooks/${name} is not a hook: expected <hook>.pp or <hook>.mjs, hooks being ${HOOK_NAMES.join(', ')}`,
          at(path),
          didYouMeanHint(stem, HOOK_NAMES),
        ),
      );
      continue;
    }
    const existing = hooks[hook];
    if (existing) {
      problems.push(
        problem(
          'error',
          'TEMPLATE_DUPLICATE_HOOK',
          `hook ${hook} is defined twice (.pp and .mjs)`,
          at(path),
          'keep one of them',
        ),
      );
      continue;
    }
    hooks[hook] = { path, kind: match[2] as 'pp' | 'mjs' };
  }
  return hooks;
}

// ---------------------------------------------------------------------------------------------------
// Helpers

/** A position at the start of a file (for problems about a whole file). */
function at(file: string): Position {
  return { file, line: 1, column: 1 };
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The native realpath: one system call, where the JavaScript one lstats every component. */
function realpathOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
