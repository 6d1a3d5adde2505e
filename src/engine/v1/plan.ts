/**
 * The RenderPlan of a V1 project: the Ruby worker lists the repository's files with what PDK (or, for a
 * modulesync configuration, `msync update`: ruby/pantograph-v1/modulesync.rb) would do with each
 * (manage, init, unmanage, delete), and renders the ones to write. They become ordinary planned
 * files of one template, so `status`, `apply --noop`, `apply` (atomic, locked, hand edits kept) and
 * `render` treat them like V2 output:
 * - moduleroot/ files are `file`s; moduleroot_init/ files are `init`s (created only when missing, in a
 *   project new to Pantograph: what `pdk convert` does), but not in a module PDK already converted
 *   (metadata.json has `pdk-version` or `template-url`), where a run is `pdk update`, which creates none;
 * - `unmanaged: true` and `delete: true` of a file the repository has become the plan's `unmanaged` and
 *   `delete` paths (as in PDK they act only on the repository's files);
 * - output is never "empty": PDK writes an empty rendering as a file holding a newline, msync as an
 *   empty file;
 * - a managed file PDK would see no change in (CRLF endings, blank lines at its end: pdk-unchanged.ts) is
 *   planned as the project's own bytes, so that it is stable, as `pdk update` leaves it (msync writes
 *   each file as rendered).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { maskCredentials, withoutCredentials } from '../../shared/url-credentials.js';
import { SyncError } from '../../sync/errors.js';
import { readLock } from '../../sync/lock.js';
import { checkOutputPath } from '../../sync/paths.js';
import { EngineError, problem } from '../errors.js';
import type { DetailedPlan } from '../plan.js';
import { ENGINE_VERSION } from '../plan.js';
import type { Project } from '../project.js';
import { SYNC_FILE } from '../project-config.js';
import type { PlannedFile, Problem, RenderPlan } from '../render-plan.js';
import { plannedSource } from '../sources/index.js';
import { jsonPointer } from '../yaml-data.js';
import { unclosedErbTagProblem } from './erb-tags.js';
import { RubyNotFoundError, RubyWorkerError, V1TemplateError } from './errors.js';
import { lockedStyleOf, pdkSeesNoChange } from './pdk-unchanged.js';
import type { V1Project } from './project.js';
import { MODULESYNC_TEMPLATE_NAME, V1_TEMPLATE_NAME } from './repository.js';
import { syncProblems, type V1SyncError } from './sync-error.js';
import { ignoredSyncKeys } from './sync-keys.js';
import { RubyWorker, rubyLimits } from './worker-client.js';

/** One file of the repository as the worker reports it. */
interface WorkerFile {
  readonly path: string;
  /** `moduleroot/...` or `moduleroot_init/...`, with `.erb`. */
  readonly source: string;
  readonly init: boolean;
  readonly status: 'manage' | 'init' | 'unmanage' | 'delete' | 'error';
  readonly executable?: boolean;
  readonly error?: WorkerErrorInfo & {
    /** modulesync: the file's key that fails, in `.sync.yml` or a file of the configuration. */
    readonly at?: { readonly file: string; readonly line: number; readonly column: number } | null;
    /** modulesync: a file to manage that has no template (msync's File.read fails on it). */
    readonly noTemplate?: boolean;
  };
}

interface WorkerErrorInfo {
  readonly class: string;
  readonly message: string;
  readonly file: string | null;
  readonly line: number | null;
}

/**
 * `.sync.yml` (or, for modulesync, a YAML file of the configuration) as Ruby's YAML refuses it, and the
 * node to blame (sync-error.ts says it in words).
 */
interface SyncErrorInfo extends V1SyncError {
  readonly file: string;
}

/** The YAML files whose load errors are the plan's problems at their place, not a broken worker. */
const YAML_INPUTS = new Set([SYNC_FILE, 'config_defaults.yml', 'modulesync.yml', 'managed_modules.yml']);

interface WorkerWarning {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
}

export async function planV1(project: Project & { readonly v1: V1Project }): Promise<DetailedPlan> {
  const { v1, options } = project;
  const msync = v1.kind === 'modulesync';
  const tool = msync ? 'msync' : 'PDK';
  const env = options.env ?? process.env;
  const problems: Problem[] = [...project.problems];
  // Messages name the repository with any password masked; templates read it without credentials.
  const shown = maskCredentials(v1.url);
  const worker = new RubyWorker({ env, limits: rubyLimits(env), repository: shown });
  const files: PlannedFile[] = [];
  const unmanaged: string[] = [];
  const deleted: string[] = [];
  try {
    options.onProgress?.(
      `starting Ruby for the ${msync ? 'modulesync configuration' : 'V1 repository'} ${shown}`,
    );
    const loaded = await worker.load(
      msync
        ? {
            kind: 'modulesync',
            root: v1.source.dir,
            syncText: project.config.text === '' ? null : project.config.text,
            moduleDir: project.root,
            moduleName: v1.modulesyncModule,
          }
        : {
            root: v1.source.dir,
            syncText: project.config.text,
            metadataText: readText(join(project.root, 'metadata.json')),
            uri: withoutCredentials(v1.url),
          },
    );
    const refused = loaded.ok ? undefined : (loaded.error as SyncErrorInfo | undefined);
    if (refused?.file !== undefined && YAML_INPUTS.has(refused.file)) {
      // Ruby's YAML refuses the file (PDK and msync stop on it too): an error at each value it refuses.
      const file = refused.file === SYNC_FILE ? project.config.file : join(v1.source.dir, refused.file);
      problems.push(...syncProblems(refused, file, tool));
      return { plan: v1Plan(project, v1, [], [], [], problems), templates: [] };
    }
    if (!loaded.ok) {
      const error = loaded.error as WorkerErrorInfo;
      throw new EngineError(
        'V1_WORKER',
        `the V1 repository ${shown} could not be read: ${error.class}: ${error.message}`,
      );
    }
    for (const w of (loaded.warnings ?? []) as WorkerWarning[]) {
      if (w.file === SYNC_FILE) {
        problems.push(unreadableSync(w, project.config.file, project.config.text));
        continue;
      }
      const file = join(v1.source.dir, w.file);
      problems.push(
        problem(
          'warning',
          'V1_CONFIG_YAML',
          `${w.message}; PDK reads it as {} and so does this run`,
          { file, line: w.line ?? 1, column: w.column ?? 1 },
          'fix the YAML: its settings are ignored until then',
        ),
      );
    }
    const converted = convertedByPdk(readText(join(project.root, 'metadata.json')));
    const all = (loaded.files ?? []) as WorkerFile[];
    if (!msync) {
      // msync stops on a key it has no file for (a V1_CONFIG error); PDK ignores one: said here.
      problems.push(
        ...ignoredSyncKeys(
          project.config,
          all.map((f) => f.path),
          v1.source.dir,
        ),
      );
    }
    const listed = all.filter((f) => !(converted && f.init));
    const toRender = listed.filter((f) => f.status === 'manage' || f.status === 'init');
    let done = 0;
    for (const f of listed) {
      if (reserved(f, problems, msync ? join(v1.source.dir, f.source) : undefined)) continue;
      if (f.status === 'unmanage') unmanaged.push(f.path);
      else if (f.status === 'delete') deleted.push(f.path);
      else if (f.status === 'error') {
        // Settings fail on the project's data: point at the file's key in .sync.yml (or the file's top).
        const e = f.error!;
        const at = e.at
          ? {
              file: e.at.file === SYNC_FILE ? project.config.file : join(v1.source.dir, e.at.file),
              line: e.at.line,
              column: e.at.column,
            }
          : project.config.positionOf(jsonPointer([f.path]));
        problems.push(
          e.noTemplate
            ? problem(
                'error',
                'V1_CONFIG',
                `${f.path}: ${e.class}: ${e.message}`,
                at,
                'set `delete: true` or `unmanaged: true` under it, remove the key, or add the template to the configuration; msync stops on this module too',
              )
            : new V1TemplateError('V1_CONFIG', f.path, e.class, e.message, at, tool).toProblem(),
        );
      } else {
        options.onProgress?.(`rendering ${f.path} with Ruby (${++done}/${toRender.length})`);
        const planned = await renderOne(worker, f, project, v1, problems);
        if (planned) files.push(planned);
      }
    }
  } finally {
    worker.close();
  }
  return { plan: v1Plan(project, v1, files, unmanaged, deleted, problems), templates: [] };
}

/**
 * A `.sync.yml` our YAML reader took and Ruby's cannot parse: PDK warns and renders as if it were `{}`,
 * which would write every file without the module's settings; here, as for any `.sync.yml` that is not
 * YAML, an error, and nothing is written. A byte order mark (saved so by an editor on Windows) is the
 * common cause, and invisible, so it is named: Ruby's message blames the next line.
 */
function unreadableSync(w: WorkerWarning, file: string, text: string): Problem {
  if (text.startsWith('\uFEFF')) {
    return problem(
      'error',
      'V1_CONFIG_YAML',
      ".sync.yml begins with a byte order mark (U+FEFF), which Ruby's YAML, and so PDK, cannot parse: PDK ignores every setting of it (as `{}`, with a warning)",
      { file, line: 1, column: 1 },
      'save .sync.yml as UTF-8 without a BOM (in VS Code: "Save with Encoding", "UTF-8")',
    );
  }
  return problem(
    'error',
    'V1_CONFIG_YAML',
    `${w.message}; PDK would ignore every setting of it (as \`{}\`, with a warning)`,
    { file, line: w.line ?? 1, column: w.column ?? 1 },
    'fix the YAML; nothing is written until then',
  );
}

function v1Plan(
  project: Project,
  v1: V1Project,
  files: PlannedFile[],
  unmanaged: string[],
  deleted: string[],
  problems: Problem[],
): RenderPlan {
  return {
    projectRoot: project.root,
    isNew: project.isNew,
    engineVersion: ENGINE_VERSION,
    sources: [plannedSource(v1.source)],
    templates: [{ name: templateName(v1), version: undefined, source: 0, settings: {} }],
    files,
    unmanaged,
    unmanagedOutputs: unmanaged,
    delete: deleted,
    purge: false,
    post: [],
    problems: [
      ...problems.filter((p) => p.severity === 'error'),
      ...problems.filter((p) => p.severity === 'warning'),
    ],
  };
}

/** One file rendered; a template error or a limit is the file's problem, and the run goes on. */
async function renderOne(
  worker: RubyWorker,
  f: WorkerFile,
  project: Project,
  v1: V1Project,
  problems: Problem[],
): Promise<PlannedFile | undefined> {
  let reply: Awaited<ReturnType<RubyWorker['render']>>;
  try {
    reply = await worker.render(f.path);
  } catch (e) {
    if (e instanceof RubyNotFoundError || !(e instanceof RubyWorkerError)) throw e;
    problems.push(
      problem(
        'error',
        e.code,
        `${f.path}: ${e.message}`,
        { file: join(v1.source.dir, f.source), line: 1, column: 1 },
        e.code === 'V1_WORKER'
          ? 'the template stopped Ruby itself (exit, a crash): see the message; the other files were rendered'
          : 'a template that loops or builds a huge output; the other files were rendered',
      ),
    );
    return undefined;
  }
  if (f.source.endsWith('.erb')) {
    const source = readText(join(v1.source.dir, f.source));
    const unclosed =
      source === null ? undefined : unclosedErbTagProblem(source, join(v1.source.dir, f.source), f.path);
    if (unclosed) problems.push(unclosed);
  }
  if (!reply.ok) {
    const error = reply.error as WorkerErrorInfo;
    const code = error.class === 'OutputLimit' ? 'V1_OUTPUT_LIMIT' : 'V1_RENDER';
    problems.push(templateError(code, f, error, v1).toProblem());
    return undefined;
  }
  const rendered = Buffer.from(reply.content as string, 'base64');
  const target = join(project.root, f.path);
  // msync gives each file its template file's mode; PDK only adds an execute bit.
  const executable = f.executable === true || (v1.kind === 'pdk' && isExecutable(target));
  return {
    path: f.path,
    content:
      v1.kind === 'pdk'
        ? asPdkLeavesIt(target, f.init, rendered, lockedHash(project.root, f.path))
        : new Uint8Array(rendered.buffer, rendered.byteOffset, rendered.byteLength),
    mode: executable ? 0o755 : 0o644,
    template: templateName(v1),
    source: f.source,
    kind: f.init ? 'init' : 'file',
    empty: false,
  };
}

function templateError(
  code: 'V1_RENDER' | 'V1_OUTPUT_LIMIT',
  f: WorkerFile,
  error: WorkerErrorInfo,
  v1: V1Project,
): V1TemplateError {
  const position =
    error.file !== null && error.line !== null
      ? { file: error.file, line: error.line, column: 1 }
      : { file: join(v1.source.dir, f.source), line: 1, column: 1 };
  const tool = v1.kind === 'modulesync' ? 'msync' : 'PDK';
  return new V1TemplateError(code, f.path, error.class, error.message, position, tool);
}

function templateName(v1: V1Project): string {
  return v1.kind === 'modulesync' ? MODULESYNC_TEMPLATE_NAME : V1_TEMPLATE_NAME;
}

/**
 * A path Pantograph never writes: `.sync.yml` (pdk-templates' moduleroot_init has one, to start a V1
 * project; here the project has one or runs without) is left out quietly, anything else with a warning.
 * A modulesync template of `.sync.yml` (`msyncTemplate`) is said: msync would write it over the module's.
 */
function reserved(f: WorkerFile, problems: Problem[], msyncTemplate?: string): boolean {
  if (f.path === SYNC_FILE) {
    if (msyncTemplate !== undefined && f.status === 'manage') {
      problems.push(
        problem(
          'warning',
          'V1_RENDER',
          ".sync.yml: msync would render this template over the module's own .sync.yml (after reading it); Pantograph reads .sync.yml as the module's settings and never writes it: left out",
          { file: msyncTemplate, line: 1, column: 1 },
          'remove the template from moduleroot/ (or keep the settings it writes in each module by hand)',
        ),
      );
    }
    return true;
  }
  try {
    checkOutputPath(f.path);
    return false;
  } catch (e) {
    if (!(e instanceof SyncError)) throw e;
    problems.push(problem('warning', 'V1_RENDER', `${f.path}: ${e.message}; left out`, undefined, e.hint));
    return true;
  }
}

/** PDK's `module_pdk_compatible?`: metadata.json names a PDK version or template (`pdk update` runs). */
function convertedByPdk(metadataText: string | null): boolean {
  try {
    // A byte order mark is the loader's error (PROJECT_METADATA), not a module PDK never converted.
    const metadata = JSON.parse((metadataText ?? '').replace(/^\uFEFF/, '')) as unknown;
    if (typeof metadata !== 'object' || metadata === null) return false;
    return 'pdk-version' in metadata || 'template-url' in metadata;
  } catch {
    return false;
  }
}

/**
 * The rendered bytes, or the project's file when `pdk update` would leave it as it is; or, for a file
 * edited since, what was recorded for it when that was the same to PDK as today's output.
 */
function asPdkLeavesIt(
  file: string,
  init: boolean,
  rendered: Buffer,
  locked: string | undefined,
): Uint8Array {
  const own = init ? null : readBytes(file);
  const bytes =
    own !== null && pdkSeesNoChange(own, rendered)
      ? own
      : ((!init && locked !== undefined ? lockedStyleOf(rendered, locked) : undefined) ?? rendered);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The rendered hash the lock records for a path (a lock that cannot be read is status's to report). */
function lockedHash(root: string, path: string): string | undefined {
  try {
    return readLock(root)?.files.get(path)?.rendered || undefined;
  } catch {
    return undefined;
  }
}

function readBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}

/** PDK only ever adds an execute bit (manage_execute_permissions), never takes one away. */
function isExecutable(file: string): boolean {
  try {
    return (statSync(file).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
