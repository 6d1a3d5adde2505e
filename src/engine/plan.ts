/**
 * From a loaded project to a RenderPlan (DESIGN 5-7). Templates are resolved one by one in dependency
 * order, each through the six lifecycle steps:
 *   1. default_settings                                  -> after_default_settings
 *   2. publish; merge the subscribed shared values       -> after_shared_settings
 *   3. merge the project's section; validate             -> after_project_settings (publication final)
 *   4. (subscribers resolved later see the publication)
 *   5. resolve the files to render                       -> after_file_resolution
 *   6. render each file                                  -> before_file_render, per file
 * Then one output per path is chosen (earliest template with non-empty output). Pure: nothing is written.
 *
 * Settings are validated right after the project layer, before `after_project_settings`: a setting that
 * hook (or a later one) derives needs no schema entry, one added by an earlier hook does; a declared
 * setting a later hook changes is checked again (hook-settings.ts). A template whose hook fails or
 * whose settings are invalid renders nothing (its problems say why); the other templates still plan.
 */
import { join } from 'node:path';
import type { PHash } from '../epp/runtime/values.js';
import { deletedOutputMessage, deletedOutputs } from '../sync/glob.js';
import { engineVersion } from '../version.js';
import { type OutputClaim, resolvePaths } from './composition.js';
import { problem } from './errors.js';
import { declaredSettingsBroken, HOOKS_AFTER_VALIDATION } from './hook-settings.js';
import type { HookState } from './hooks.js';
import { lateHookOutput, newHookOwner } from './js-hooks.js';
import type { DataMap, HookName, LoadedTemplate, Position, TemplateFile } from './model.js';
import { resolveFiles } from './output-files.js';
import { hasErrorIn, hookRun, renderUntrusted, settingsForFile, untrustedHooks } from './plan-hooks.js';
import type { Project } from './project.js';
import { cacheable, keyedFile, templateKey } from './render-cache.js';
import { type RenderContext, renderFileInto } from './render-files.js';
import type { PlannedFile, PlannedSource, PlannedTemplate, Problem, RenderPlan } from './render-plan.js';
import { Sandbox, sandboxLimits } from './sandbox.js';
import {
  cloneData,
  dataEquals,
  dataToValue,
  identicalData,
  mergeData,
  mergeSettings,
  type SettingsValidationContext,
  setOwn,
  validateSettings,
} from './settings.js';
import { declaredPublication, dependencyOrder, SharedSettingsBoard } from './shared-settings.js';
import { plannedSource, sourceIdentity } from './sources/index.js';
import { jsonPointer, toJson } from './yaml-data.js';

/** Where a setting's final value came from. */
export interface SettingOrigin {
  readonly layer: 'default' | 'shared' | 'project' | 'hook';
  /** The publishers (shared) or the hook's name (hook). */
  readonly detail?: string;
}

/** One applied template, resolved: what `show` and `validate --show-nested` report. */
export interface ResolvedTemplate {
  readonly template: LoadedTemplate;
  /** Settings before the project layer: defaults and shared values (after their hooks). */
  readonly defaults: DataMap;
  /**
   * The subscribed settings as they arrived, before `after_shared_settings`: what the publishers (and the
   * project's shared override) gave, so that a change the hook made is not credited to them.
   */
  readonly received: DataMap;
  /** Final settings (after `after_file_resolution`; before any per-file change). */
  readonly settings: DataMap;
  /** What it published (final). */
  readonly published: DataMap;
  /** Origin of each top-level setting. */
  readonly origins: Readonly<Record<string, SettingOrigin>>;
  /** Every file it produced (also those another template's file won over). */
  readonly files: readonly PlannedFile[];
}

export interface DetailedPlan {
  readonly plan: RenderPlan;
  /** The applied templates in applied order. */
  readonly templates: readonly ResolvedTemplate[];
}

/** The RenderPlan of a project. Pure: it never writes into the project. */
export async function plan(project: Project): Promise<RenderPlan> {
  return (await planDetailed(project)).plan;
}

/** The RenderPlan and what each template resolved to. */
export async function planDetailed(project: Project): Promise<DetailedPlan> {
  // A V1 project renders with Ruby (src/engine/v1), loaded only then.
  if (project.v1) return (await import('./v1/plan.js')).planV1({ ...project, v1: project.v1 });
  const problems: Problem[] = [...project.problems];
  const applied = project.applied;
  const ordered = dependencyOrder(applied);
  problems.push(...ordered.problems);
  // Untrusted templates render and run their hooks in a worker with time and memory limits.
  const sandbox = new Sandbox(
    sandboxLimits(project.options.env ?? process.env, project.options.untrustedLimits),
  );
  const board = new SharedSettingsBoard(applied, project.config, project.available.values(), sandbox.limits);
  const resolved = new Map<LoadedTemplate, ResolvedTemplate>();
  // This plan's JavaScript hook runs: what they print late is reported here, not in a concurrent plan.
  const owner = newHookOwner();
  try {
    for (const [i, t] of ordered.order.entries()) {
      project.options.onProgress?.(`rendering template ${t.name} (${i + 1}/${ordered.order.length})`);
      const r = await resolveTemplate(project, t, board, problems, sandbox, owner);
      resolved.set(t, r);
    }
  } catch (e) {
    void lateHookOutput(owner); // ends the owner: no one will report its late prints
    throw e;
  } finally {
    sandbox.close();
  }
  problems.push(...board.problems);
  // What JavaScript hooks printed after returning, and timers they left: no later hook would report them.
  problems.push(...(await lateHookOutput(owner)));

  const templates = applied.map((t) => resolved.get(t)!);
  const files = chooseOutputs(templates, problems);
  problems.push(...deletedOutputProblems(project, files));

  const sources: PlannedSource[] = project.sources.map(plannedSource);
  const plannedTemplates: PlannedTemplate[] = templates.map((r) => ({
    name: r.template.name,
    version: r.template.manifest.version,
    source: r.template.sourceIndex,
    settings: toJson(r.settings) as Record<string, unknown>,
  }));
  const plan: RenderPlan = {
    projectRoot: project.root,
    isNew: project.isNew,
    engineVersion: ENGINE_VERSION,
    sources,
    templates: plannedTemplates,
    files,
    unmanaged: project.config.unmanaged,
    delete: project.config.delete,
    purge: project.config.purge,
    post: project.config.post,
    problems: sortProblems(problems),
  };
  return { plan, templates };
}

/**
 * One file per output path, in applied order. When no two files share a path (the usual case) that is
 * every file, and the claims of composition are not needed.
 */
function chooseOutputs(templates: readonly ResolvedTemplate[], problems: Problem[]): PlannedFile[] {
  const all: PlannedFile[] = [];
  const paths = new Set<string>();
  for (const r of templates) {
    for (const file of r.files) {
      all.push(file);
      paths.add(file.path);
    }
  }
  if (paths.size === all.length) return all;
  const claims: FileClaim[] = [];
  templates.forEach((r, order) => {
    for (const file of r.files) claims.push(new FileClaim(file, order, r.template.dir));
  });
  const chosen = resolvePaths(claims);
  problems.push(...chosen.problems);
  return chosen.winners.map((c) => c.file);
}

/**
 * A `delete` entry naming a file a template produces is an error at the entry (sync refuses such a plan
 * with the same words: `deletedOutputs`), so that `validate` and `convert`'s check see it too.
 */
function deletedOutputProblems(project: Project, files: readonly PlannedFile[]): Problem[] {
  const { config } = project;
  return deletedOutputs(files, config.delete, config.unmanaged).map((d) => {
    const { message, hint } = deletedOutputMessage(d);
    const pointer = config.deletePointers?.[d.entry];
    return problem(
      'error',
      'SYNC_DELETE_PRODUCED',
      message,
      pointer !== undefined ? config.positionOf(pointer) : undefined,
      hint,
    );
  });
}

/** The engine's version, from package.json. */
export const ENGINE_VERSION: string = engineVersion();

/** Errors first, then warnings; otherwise in the order found. */
function sortProblems(list: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  const unique = list.filter((p) => {
    const key = `${p.severity}\0${p.code}\0${p.message}\0${p.file}\0${p.line}\0${p.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return [...unique.filter((p) => p.severity === 'error'), ...unique.filter((p) => p.severity === 'warning')];
}

/** Runs the lifecycle of one template. */
async function resolveTemplate(
  project: Project,
  t: LoadedTemplate,
  board: SharedSettingsBoard,
  problems: Problem[],
  sandbox: Sandbox,
  /** The plan its JavaScript hooks run for. */
  owner: number,
): Promise<ResolvedTemplate> {
  const origins: Record<string, SettingOrigin> = {};
  const untrusted = untrustedHooks(t, project.options.distrust);
  if (untrusted) {
    problems.push(untrusted);
    // What template.json declares, as when a hook fails: its subscribers would otherwise fail on a null
    // and bury the one error (the source's trust) under theirs.
    board.publish(t, declaredPublication(t));
    return { template: t, defaults: {}, received: {}, settings: {}, published: {}, origins, files: [] };
  }
  let state: HookState = {
    template: { name: t.name, path: t.dir, version: t.manifest.version ?? null },
    settings: cloneData(t.manifest.default_settings) as DataMap,
    published: declaredPublication(t),
    files_to_render: [],
    project: { name: project.name, is_new: project.isNew },
    metadata: project.metadata,
  };
  for (const k of Object.keys(state.settings)) origins[k] = { layer: 'default' };
  const validation: SettingsValidationContext = {
    config: project.config,
    untrustedLimits: sandbox.limits,
    sharedSchema: (name) => board.schemaOf(name),
    sharedSchemaTrusted: (name) => board.schemaTrusted(name),
    // Only a value no hook or project layer touched is still the publishers' doing.
    fromPublishers: (name) => (origins[name]?.layer === 'shared' ? board.publishedSetting(name) : undefined),
    setByHook: (name) => {
      const origin = origins[name];
      return origin?.layer === 'hook' ? t.hooks[origin.detail as HookName]?.path : undefined;
    },
  };
  let failed = false;
  const hook = async (name: HookName): Promise<void> => {
    const file = t.hooks[name];
    if (!file || failed) return;
    const before = state.settings;
    const outcome = await hookRun(sandbox, t, name, file, state, project, owner);
    problems.push(...outcome.problems);
    if (hasErrorIn(outcome.problems)) failed = true;
    state = outcome.state;
    noteChanges(origins, before, state.settings, { layer: 'hook', detail: name });
    if (failed || !HOOKS_AFTER_VALIDATION.includes(name)) return;
    const broken = declaredSettingsBroken(t, name, file, before, state.settings, validation);
    problems.push(...broken);
    if (hasErrorIn(broken)) failed = true;
  };

  // 1. default settings
  await hook('after_default_settings');

  // 2. shared settings: each subscription arrives as a setting of that name
  {
    const before = state.settings;
    const settings = { ...before };
    for (const name of t.manifest.setting_subscriptions) {
      const shared = board.valueOf(name);
      // A value its publishers' schema refused is that error's alone (reported there): rendered here it
      // would fail again, as a type error of this template's files that hides the first one.
      if (board.refused(name)) failed = true;
      if (shared.value === undefined) {
        if (!Object.hasOwn(settings, name)) setOwn(settings, name, null);
        continue;
      }
      setOwn(settings, name, mergeData(settings[name], shared.value).value);
      const from = [...shared.publishers, ...(shared.fromProject ? ['pdk_template.shared_settings'] : [])];
      origins[name] = { layer: 'shared', detail: from.join(', ') };
    }
    state = { ...state, settings };
  }
  const received: DataMap = {};
  for (const name of t.manifest.setting_subscriptions) setOwn(received, name, state.settings[name] ?? null);
  await hook('after_shared_settings');
  const defaults = state.settings;

  // 3. the project's settings, validated
  const section = project.config.settings[t.name] ?? {};
  const merged = mergeSettings(state.settings, section, jsonPointer([t.name]));
  for (const w of merged.warnings) {
    problems.push(problem('warning', w.code, w.message, project.config.positionOf(w.pointer)));
  }
  // Merging copies the settings the section does not name: only those it names can differ.
  noteChanges(origins, state.settings, merged.value, { layer: 'project' }, section);
  for (const k of Object.keys(section)) if (section[k] !== null) origins[k] = { layer: 'project' };
  state = { ...state, settings: merged.value };
  const invalid = validateSettings(t, state.settings, validation);
  problems.push(...invalid);
  if (invalid.some((p) => p.severity === 'error')) failed = true;
  await hook('after_project_settings');
  board.publish(t, state.published);

  // 5. the files to render
  const resolution = resolveFiles(t, project.isNew);
  problems.push(...resolution.problems);
  const outputs = resolution.files.map((f) => f.output);
  state = { ...state, files_to_render: outputs };
  await hook('after_file_resolution');
  const result = {
    template: t,
    defaults,
    received,
    settings: state.settings,
    published: state.published,
    origins,
  };
  if (failed) return { ...result, files: [] };

  // 6. render each file
  // Unless a hook removed some, every resolved file is rendered.
  const keep = state.files_to_render === outputs ? undefined : new Set(state.files_to_render);
  const files: PlannedFile[] = [];
  const toRender = keep ? resolution.files.filter((f) => keep.has(f.output)) : resolution.files;
  if (!t.source.trusted) {
    files.push(...(await renderUntrusted(sandbox, project, t, toRender, state, problems, validation, owner)));
    return { ...result, files };
  }
  const shared = t.hooks.before_file_render ? undefined : renderContext(project, t, state.settings);
  const cache = project.options.renderCache;
  const baseKey =
    cache !== undefined && shared !== undefined && cacheable(t)
      ? templateKey({
          template: t,
          settings: state.settings,
          metadata: project.metadata,
          projectName: project.name,
          isNew: project.isNew,
          strict: shared.strict,
        })
      : undefined;
  for (const f of toRender) {
    // Awaiting only when there is a hook keeps a thousand files from a thousand round trips of promises.
    const ctx = shared ?? (await hookedContext(t, f, state, problems, project, sandbox, validation, owner));
    if (!ctx) continue;
    const planned =
      baseKey !== undefined
        ? keyedFile(ctx, f, baseKey, cache!, problems, project.options.digests)
        : renderFileInto(ctx, f, problems);
    if (planned) files.push(planned);
  }
  return { ...result, files };
}

/** The render context of one file whose `before_file_render` hook may change the settings. */
async function hookedContext(
  t: LoadedTemplate,
  f: TemplateFile,
  state: HookState,
  problems: Problem[],
  project: Project,
  sandbox: Sandbox,
  validation: SettingsValidationContext,
  owner: number,
): Promise<RenderContext | undefined> {
  const settings = await settingsForFile(t, f, state, problems, project, sandbox, validation, owner);
  return settings && renderContext(project, t, settings);
}

/** Records the layer of every top-level setting a step changed. */
function noteChanges(
  origins: Record<string, SettingOrigin>,
  before: DataMap,
  after: DataMap,
  origin: SettingOrigin,
  /** The keys the step could change, when known: the others are not compared. */
  changeable?: object,
) {
  for (const [k, v] of Object.entries(after)) {
    if (changeable && !Object.hasOwn(changeable, k)) continue;
    if (!Object.hasOwn(before, k) || !dataEquals(before[k], v)) origins[k] = origin;
  }
}

/** A file's claim on its output path; its position is needed only for the rare path claimed twice. */
class FileClaim implements OutputClaim {
  readonly path: string;
  readonly template: string;
  readonly empty: boolean;

  constructor(
    readonly file: PlannedFile,
    readonly order: number,
    private readonly dir: string,
  ) {
    this.path = file.path;
    this.template = file.template;
    this.empty = file.empty;
  }

  get position(): Position {
    return { file: join(this.dir, this.file.source), line: 1, column: 1 };
  }
}

const contexts = new WeakMap<DataMap, RenderContext>();

/** What a template's last render context was made from (copies: callers may hold the originals). */
interface ContextSource {
  readonly ctx: RenderContext;
  readonly settings: DataMap;
  readonly metadata: DataMap;
  readonly name: string;
  readonly isNew: boolean;
}

/**
 * The last render context of each template. Planning again with the same settings reuses it, and with
 * it the same Puppet values: the EPP runtime remembers type checks per value object, and the files'
 * arguments, shared per context, need not be built again.
 */
const lastContexts = new WeakMap<LoadedTemplate, ContextSource>();

/** What the files of a template see; converted once per settings object (per template, unless hooked). */
function renderContext(project: Project, t: LoadedTemplate, settings: DataMap): RenderContext {
  let ctx = contexts.get(settings);
  if (ctx?.template === t) return ctx;
  const strict = project.options.strict ?? true;
  const last = lastContexts.get(t);
  if (
    last &&
    last.ctx.strict === strict &&
    last.name === project.name &&
    last.isNew === project.isNew &&
    identicalData(last.settings, settings) &&
    identicalData(last.metadata, project.metadata)
  ) {
    ctx = last.ctx;
  } else {
    const settingsValue = dataToValue(settings) as PHash;
    const topScope: PHash = new Map([
      ['settings', settingsValue],
      ['metadata', dataToValue(project.metadata)],
      ['project', dataToValue({ name: project.name, is_new: project.isNew })],
      [
        'template',
        dataToValue({
          name: t.name,
          version: t.manifest.version ?? null,
          source: sourceIdentity(t.source.spec),
        }),
      ],
    ]);
    const copy = cloneData(settings) as DataMap;
    ctx = { template: t, settings: copy, settingsValue, topScope, strict };
    lastContexts.set(t, {
      ctx,
      settings: copy,
      metadata: cloneData(project.metadata) as DataMap,
      name: project.name,
      isNew: project.isNew,
    });
  }
  contexts.set(settings, ctx);
  return ctx;
}
