/**
 * A project as the engine sees it: its `.sync.yml`, its sources made available, the templates they offer,
 * the applied ones in order, and the project facts templates see (`metadata.json`, new or not).
 * `loadProject` reads (and may fetch git sources into the cache) but never writes into the project;
 * `plan(project)` (plan.ts) turns it into a RenderPlan.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { LOCK_FILE } from '../shared/project-files.js';
import type { FileDigests } from '../sync/digests.js';
import { templateCatalogue } from './available-templates.js';
import { type AvailableTemplate, appliedOrder } from './composition.js';
import { EngineError, problem } from './errors.js';
import { parseJsonData } from './json-data.js';
import type { DataMap, LoadedTemplate, ResolvedSource, SyncConfig, TemplateLocation } from './model.js';
import { loadSyncConfig, parseSyncConfig, SYNC_FILE } from './project-config.js';
import type { RenderCache } from './render-cache.js';
import type { Problem } from './render-plan.js';
import type { SandboxLimits } from './sandbox.js';
import { isDataMap } from './settings.js';
import { listTemplates, resolveSources } from './sources/index.js';
import type { SyncOrigin } from './sync-origins.js';
import { fenceSources, type TemplateFence } from './template-fence.js';
import type { LocatedV1, V1Project } from './v1/project.js';
import type { RubyRepositoryKind } from './v1/repository.js';

export { LOCK_FILE };

export interface ProjectOptions {
  /** Git sources: use the cache only. */
  readonly offline?: boolean;
  /** Trust every git source, so that its `.mjs` hooks may run (`--trust`). */
  readonly trust?: boolean;
  /**
   * Trust no source of the project's (the bundled default templates aside): no JavaScript hook or V1
   * template (Ruby) runs, templates render sandboxed. For views of a project that must not run its code
   * merely because it is looked at, such as the language server. `hint` says how to trust it after all.
   */
  readonly distrust?: { readonly hint: string };
  /**
   * The project is someone else's input (a repository of a fleet run): a directory its own files name as
   * a template repository may not lie inside it or in these directories (the fleet's workdir), and neither
   * its own `trusted: true` nor `trust` makes its sources trusted (template-fence.ts). Sources `syncOrigins` give to another file (the
   * fleet's `template_sources`) are that file's, and are not fenced.
   */
  readonly fence?: TemplateFence;
  /** Unknown variables in templates are errors (default true; `--no-strict` sets false). */
  readonly strict?: boolean;
  /** Time limit of one hook run in milliseconds (default 5000). */
  readonly hookTimeLimitMs?: number;
  /**
   * Limits of the worker in which untrusted templates render and run their hooks (default 30 s per job,
   * 512 MB; or `PANTOGRAPH_UNTRUSTED_TIME_LIMIT` seconds and `PANTOGRAPH_UNTRUSTED_MEMORY_LIMIT` MB).
   */
  readonly untrustedLimits?: Partial<SandboxLimits>;
  /** Environment for `PANTOGRAPH_*` variables and git (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** The git executable (default `git`). */
  readonly gitBinary?: string;
  /** The locked commit of a git source, to use instead of resolving its `ref`. */
  readonly lockedCommit?: (spec: SyncConfig['sources'][number], index: number) => string | undefined;
  /** Hears what long work is being done (fetching a source, rendering a template), for a progress line. */
  readonly onProgress?: (text: string) => void;
  /** A fact the user should know about the run, not a problem (the V1 repository taken from the lock). */
  readonly onNote?: (text: string) => void;
  /**
   * The text of `.sync.yml` to use instead of the file on disk: an edit not saved yet (fleet overrides,
   * a settings form's preview). Positions still name `<root>/.sync.yml`.
   */
  readonly syncText?: string;
  /**
   * Values of `.sync.yml` that another file decides (the fleet's `template_sources` and settings,
   * written in `fleet.yml`): problems with them are reported at their place in that file.
   */
  readonly syncOrigins?: readonly SyncOrigin[];
  /**
   * The render cache (render-cache.ts): given, files whose inputs are what the cache says are not
   * rendered unless their bytes are read, and every file gets its input key and hash. `planProjectAt`
   * (status, apply, fleet) gives it; `validate`, `render` and `test` render everything.
   */
  readonly renderCache?: RenderCache;
  /**
   * Hashes known from unchanged stats (sync/digests.ts): with the render cache, a template file whose
   * stat is unchanged is not read to compute its key. `planProjectAt` gives it.
   */
  readonly digests?: FileDigests;
  /**
   * A V1 project (`.sync.yml` without `pdk_template`): the V1 template repository to render it with,
   * `<url>[#<ref>]` or a directory (`--template-url`; default: metadata.json's `template-url`, as PDK).
   */
  readonly templateUrl?: string;
  /** A V1 project: the ref of `templateUrl` to use instead of its `#ref` (`--template-ref`). */
  readonly templateRef?: string;
  /**
   * A project rendered with a modulesync configuration: the module as its managed_modules.yml names it
   * (`name` or `namespace/name`; default: the project directory's name). The fleet gives it.
   */
  readonly modulesyncModule?: string;
}

export interface Project {
  /** Absolute project root (the directory holding `.sync.yml`). */
  readonly root: string;
  readonly config: SyncConfig;
  readonly sources: readonly ResolvedSource[];
  /** Every template the sources offer (the first source having a name wins), by name, sorted. */
  readonly available: ReadonlyMap<string, LoadedTemplate>;
  /** Templates hidden by one of the same name in an earlier source ("first one wins"). */
  readonly shadowed: readonly TemplateLocation[];
  /** What loading each available template found (applied ones' problems are in `problems` too). */
  readonly templateProblems: ReadonlyMap<string, readonly Problem[]>;
  /** The applied templates, in applied order. */
  readonly applied: readonly LoadedTemplate[];
  /** True when the project has no lock file yet. */
  readonly isNew: boolean;
  /** `$project['name']`: metadata.json's `name`, else the root directory's name. */
  readonly name: string;
  /** The project's `metadata.json`, or `{}`. */
  readonly metadata: DataMap;
  readonly options: ProjectOptions;
  /** Problems found while loading: `.sync.yml`, templates, composition. */
  readonly problems: readonly Problem[];
  /**
   * Set for a V1 project rendered with a V1 template repository (src/engine/v1): it has no templates of
   * its own (`available` and `applied` are empty) and `plan` renders it with Ruby.
   */
  readonly v1?: V1Project;
}

/**
 * Loads the project at `dir`. Throws EngineError where going on makes no sense (no or unparsable
 * `.sync.yml`, a V1 file, an unreachable source); everything else is collected into `problems`.
 */
export async function loadProject(dir: string, options: ProjectOptions = {}): Promise<Project> {
  let config: SyncConfig;
  try {
    config =
      options.syncText !== undefined
        ? parseSyncConfig(options.syncText, join(resolve(dir), SYNC_FILE), resolve(dir), options.syncOrigins)
        : loadSyncConfig(resolve(dir), options.syncOrigins);
  } catch (e) {
    if (
      e instanceof EngineError &&
      (e.code === 'SYNC_V1' || e.code === 'SYNC_NOT_FOUND' || isV1Duplicate(e))
    ) {
      return loadV1Project(dir, options, e);
    }
    throw e;
  }
  const root = config.root;
  const problems: Problem[] = [...config.problems];
  // A fenced project's own sources: checked, and trusted by neither their file nor --trust.
  const fenced = options.fence !== undefined && !sourcesGivenElsewhere(options.syncOrigins);
  const specs = fenced ? fenceSources(config.sources, root, options.fence!) : config.sources;
  const trust = fenced ? false : options.trust;
  const sources = await withProblemsFoundWithoutSources(
    () => [...config.problems, ...metadataProblems(root)],
    resolveSources(specs, {
      root,
      ...(options.offline !== undefined ? { offline: options.offline } : {}),
      ...(trust !== undefined ? { trust } : {}),
      ...(options.distrust !== undefined ? { distrust: true } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
      ...(options.lockedCommit !== undefined ? { lockedCommit: options.lockedCommit } : {}),
      ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
    }),
  );
  const listing = listTemplates(sources);
  problems.push(...listing.problems);

  // Templates not applied are loaded further only when asked for (available-templates.ts).
  const catalogue = templateCatalogue(listing.templates);
  const available = catalogue.available;
  const loadProblems = catalogue.problems;
  const summaries = new Map<string, AvailableTemplate>();
  for (const [name, head] of catalogue.heads) {
    summaries.set(name, {
      name,
      alwaysApply: head.manifest.always_apply,
      v1Files: head.manifest.v1_files,
    });
  }
  const unreadable = new Set(listing.templates.map((l) => l.name).filter((name) => !summaries.has(name)));
  const composition = appliedOrder(config, summaries, unreadable);
  problems.push(...composition.problems);
  // Problems of templates that are not applied do not concern this project (`pantograph list` shows them).
  for (const location of listing.templates) {
    if (composition.applied.includes(location.name) || !available.has(location.name)) {
      problems.push(...(loadProblems.get(location.name) ?? []));
    }
  }

  const metadata = readMetadata(root, problems);
  const name = typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : basename(root);
  return {
    root,
    config,
    sources,
    available,
    shadowed: listing.shadowed,
    templateProblems: loadProblems,
    applied: composition.applied.map((n) => available.get(n)!),
    isNew: !existsSync(join(root, LOCK_FILE)),
    name,
    metadata,
    options,
    problems,
  };
}

/** Whether another file (the fleet's) decides the whole `template_sources` of `.sync.yml`. */
function sourcesGivenElsewhere(origins: readonly SyncOrigin[] | undefined): boolean {
  return origins?.some((o) => o.pointer === '/pdk_template/template_sources' && o.whole) === true;
}

/**
 * A key given twice is an error in a V2 `.sync.yml`, but real V1 files have them (puppetlabs-apache's has
 * two `Rakefile:`) and Ruby's YAML, so PDK, keeps the last: a V1 file with only that error is a V1 file.
 */
function isV1Duplicate(e: EngineError): boolean {
  if (e.code !== 'SYNC_YAML' || e.problems.length === 0) return false;
  if (!e.problems.every((p) => p.severity !== 'error' || /keys must be unique/i.test(p.message)))
    return false;
  const file = e.position?.file;
  let text: string;
  try {
    text = file ? readFileSync(file, 'utf8') : '';
  } catch {
    return false;
  }
  return !/^["']?pdk_template["']?\s*:/m.test(text);
}

/** A V1 `.sync.yml`'s keys given twice (YAML errors to our reader): warnings, as Ruby keeps the last one. */
export function v1DuplicateKeyWarnings(duplicates: readonly Problem[], kind: RubyRepositoryKind): Problem[] {
  return duplicates.map((p) => ({
    ...p,
    severity: 'warning',
    message: `${p.message}: Ruby's YAML, and so ${kind === 'modulesync' ? 'msync' : 'PDK'}, keeps the last one`,
  }));
}

/** A V1 `.sync.yml`: rendered as it is when a V1 template repository is named (src/engine/v1). */
async function loadV1Project(dir: string, options: ProjectOptions, notV2: EngineError): Promise<Project> {
  const root = resolve(dir);
  const problems: Problem[] = [];
  const metadata = readMetadata(root, problems);
  // Loaded only for V1 projects: V2 runs never load the V1 code.
  const { loadV1 } = await import('./v1/project.js');
  const { config, v1 } = await loadV1(root, options, metadata, notV2);
  // Duplicate keys: read as Ruby reads them (the worker), with a note at each.
  if (notV2.code === 'SYNC_YAML') problems.push(...v1DuplicateKeyWarnings(notV2.problems, v1.kind));
  return {
    root,
    config,
    sources: [v1.source],
    available: new Map(),
    shadowed: [],
    templateProblems: new Map(),
    applied: [],
    isNew: !existsSync(join(root, LOCK_FILE)),
    name: typeof metadata.name === 'string' && metadata.name !== '' ? metadata.name : basename(root),
    metadata,
    options,
    problems,
    v1,
  };
}

/**
 * The V1 repository or modulesync configuration of a V1 project, found as loadProject finds it, without
 * running it or asking for trust (see v1/project.ts, locateV1).
 */
export async function locateV1Repository(
  dir: string,
  options: ProjectOptions = {},
): Promise<LocatedV1 | undefined> {
  const root = resolve(dir);
  const { locateV1 } = await import('./v1/project.js');
  return locateV1(root, options, readMetadata(root, []));
}

/** The project's `metadata.json` as data (Integers and Floats kept apart), or `{}` when absent. */
function readMetadata(root: string, problems: Problem[]): DataMap {
  const file = join(root, 'metadata.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return {};
  }
  // The reader of template.json (json-data.ts): strict JSON, Integers and Floats kept apart, positions
  // found only for a problem. The yaml package read it before, which in a fresh process was the first of
  // its code to run: ~8 ms of a `status --no-memo`.
  if (text.startsWith('\uFEFF')) {
    // Our reader skips it; Ruby's JSON, and so Puppet ("invalid and unparsable metadata.json"), PDK and
    // the Forge, do not: PDK modules saved so on Windows are broken for all of them.
    problems.push(
      problem(
        'error',
        'PROJECT_METADATA',
        "metadata.json begins with a byte order mark (U+FEFF), which Ruby's JSON parser, and so Puppet, PDK and the Forge, refuse",
        { file, line: 1, column: 1 },
        'save metadata.json as UTF-8 without a BOM (in VS Code: "Save with Encoding", "UTF-8")',
      ),
    );
  }
  const parsed = parseJsonData(text, file, 'PROJECT_METADATA');
  if (parsed.data === undefined) {
    for (const p of parsed.problems) {
      const message = p.message.replace(/^invalid JSON: /, '');
      problems.push({ ...p, message: `metadata.json is not valid JSON: ${message}` });
    }
    return {};
  }
  if (!isDataMap(parsed.data)) {
    problems.push(
      problem('error', 'PROJECT_METADATA', 'metadata.json must hold a JSON object', {
        file,
        line: 1,
        column: 1,
      }),
    );
    return {};
  }
  return parsed.data;
}

/**
 * A source that cannot be resolved ends the load: what was found without the sources goes with its error
 * (every problem of `.sync.yml`, errors too, and of `metadata.json`), so that `validate` reports them all
 * at once, not one more after each fix; a warning may also be why it failed (a token written into a URL,
 * SOURCE_CREDENTIALS_IN_FILE). Templates are not checked: the missing source may hold any of them.
 */
async function withProblemsFoundWithoutSources<T>(
  found: () => readonly Problem[],
  work: Promise<T>,
): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    const more = found(); // only on failure: metadata.json is read again otherwise
    if (more.length === 0) throw e;
    throw new EngineError(e.code, e.message, {
      position: e.position,
      hint: e.hint,
      problems: [...e.problems, ...more],
    });
  }
}

/** The problems of the project's `metadata.json`, read on its own (see `readMetadata`). */
function metadataProblems(root: string): Problem[] {
  const problems: Problem[] = [];
  readMetadata(root, problems);
  return problems;
}
