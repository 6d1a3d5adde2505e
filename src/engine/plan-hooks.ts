/**
 * The planner's runs of a template's own code: its hooks (in the sandbox when its source is not trusted,
 * a limit hit being the hook's problem), the settings a file renders with after `before_file_render`, and
 * the files of an untrusted template rendered in the sandbox.
 */
import { basename, join } from 'node:path';
import { SYNC_FILE } from '../shared/project-files.js';
import { maskCredentials } from '../shared/url-credentials.js';
import { problem } from './errors.js';
import { declaredSettingsBroken } from './hook-settings.js';
import { type HookOutcome, type HookState, runHook } from './hooks.js';
import type { DataMap, HookFile, HookName, LoadedTemplate, TemplateFile } from './model.js';
import type { Project } from './project.js';
import type { PlannedFile, Problem } from './render-plan.js';
import { type Sandbox, SandboxLimitError } from './sandbox.js';
import type { SettingsValidationContext } from './settings.js';
import { sourceIdentity } from './sources/index.js';

/** A hook run: in the sandbox for an untrusted template (a limit hit is the hook's problem), else here. */
export async function hookRun(
  sandbox: Sandbox,
  t: LoadedTemplate,
  name: HookName,
  file: HookFile,
  state: HookState,
  project: Project,
  /** The plan it runs for (`newHookOwner()`). */
  owner: number,
): Promise<HookOutcome> {
  const options = { timeLimitMs: project.options.hookTimeLimitMs, owner };
  if (t.source.trusted) return runHook(name, file, state, options);
  try {
    return await sandbox.hook({ kind: 'hook', name, hook: file, state, options });
  } catch (e) {
    if (!(e instanceof SandboxLimitError)) throw e;
    return { state, problems: [limitProblem(t, e, file.path, `hook ${name}`)] };
  }
}

/**
 * The files of an untrusted template, rendered in the sandbox: all in one job when they share settings,
 * else one job per file with what its `before_file_render` hook made of them.
 */
export async function renderUntrusted(
  sandbox: Sandbox,
  project: Project,
  t: LoadedTemplate,
  files: readonly TemplateFile[],
  state: HookState,
  problems: Problem[],
  validation: SettingsValidationContext,
  owner: number,
): Promise<PlannedFile[]> {
  const job = (settings: DataMap, batch: readonly TemplateFile[]) => ({
    kind: 'render' as const,
    template: {
      name: t.name,
      dir: t.dir,
      version: t.manifest.version ?? null,
      source: sourceIdentity(t.source.spec),
      delimiters: t.manifest.delimiters,
    },
    files: batch,
    settings,
    metadata: project.metadata,
    project: { name: project.name, is_new: project.isNew },
    strict: project.options.strict ?? true,
  });
  const batches: { settings: DataMap; files: readonly TemplateFile[] }[] = [];
  if (!t.hooks.before_file_render) batches.push({ settings: state.settings, files });
  else {
    for (const f of files) {
      const settings = await settingsForFile(t, f, state, problems, project, sandbox, validation, owner);
      if (settings) batches.push({ settings, files: [f] });
    }
  }
  const out: PlannedFile[] = [];
  for (const batch of batches) {
    if (batch.files.length === 0) continue;
    try {
      const result = await sandbox.render(job(batch.settings, batch.files));
      problems.push(...result.problems);
      out.push(...result.files);
    } catch (e) {
      if (!(e instanceof SandboxLimitError)) throw e;
      const at = e.during !== undefined ? join(t.dir, e.during) : t.dir;
      problems.push(limitProblem(t, e, at, e.during ?? 'rendering'));
    }
  }
  return out;
}

/** A limit of the sandbox as the problem of a template, naming the file or hook it stopped. */
function limitProblem(t: LoadedTemplate, e: SandboxLimitError, file: string, what: string): Problem {
  return {
    severity: 'error',
    code: e.code,
    message: `template '${t.name}' (${what}): ${e.message}`,
    file,
    line: 1,
    column: 1,
    hint:
      'its source is not trusted, so it runs under limits (PANTOGRAPH_UNTRUSTED_TIME_LIMIT seconds, PANTOGRAPH_UNTRUSTED_MEMORY_LIMIT MB); ' +
      'a regular expression that backtracks forever or a value that doubles in a loop is the usual cause',
  };
}

/** The settings one file renders with: the template's, as its `before_file_render` hook leaves them. */
export async function settingsForFile(
  t: LoadedTemplate,
  f: TemplateFile,
  state: HookState,
  problems: Problem[],
  project: Project,
  sandbox: Sandbox,
  validation: SettingsValidationContext,
  owner: number,
): Promise<DataMap | undefined> {
  const file = t.hooks.before_file_render;
  if (!file) return state.settings;
  const outcome = await hookRun(
    sandbox,
    t,
    'before_file_render',
    file,
    { ...state, file: { path: f.output, source: f.source } },
    project,
    owner,
  );
  problems.push(...outcome.problems);
  if (hasErrorIn(outcome.problems)) return undefined;
  const settings = outcome.state.settings;
  const broken = declaredSettingsBroken(
    t,
    'before_file_render',
    file,
    state.settings,
    settings,
    validation,
    f.output,
  );
  problems.push(...broken);
  return hasErrorIn(broken) ? undefined : settings;
}

/** Whether a hook failed: what it logged (`notice()`) is a warning beside a state that stands. */
export function hasErrorIn(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}

/** An untrusted source's template with JavaScript hooks: an error, and the template is not run. */
export function untrustedHooks(
  t: LoadedTemplate,
  distrust: { readonly hint: string } | undefined,
): Problem | undefined {
  if (t.source.trusted) return undefined;
  const js = Object.values(t.hooks).find((h) => h?.kind === 'mjs');
  if (!js) return undefined;
  const spec = t.source.spec;
  const at = spec.position ?? { file: js.path, line: 1, column: 1 };
  // Where no source is trusted on purpose (an editor's view), the project is not wrong: its hooks wait.
  if (distrust) {
    return problem(
      'warning',
      'HOOK_UNTRUSTED',
      `template '${t.name}' is not checked here: its JavaScript hooks (${js.path}) do not run`,
      at,
      distrust.hint,
    );
  }
  return problem(
    'error',
    'HOOK_UNTRUSTED',
    `template '${t.name}' has JavaScript hooks (${js.path}) but its source ${maskCredentials(spec.location)} is not trusted`,
    at,
    // Named in the file that declares the source: `.sync.yml`, or `fleet.yml` for a fleet's sources.
    spec.trustRefused !== undefined
      ? `a fleet trusts no template source a repository names itself (neither its \`trusted: true\` nor --trust counts for it); ${spec.trustRefused}`
      : `if you trust this source, set \`trusted: true\` on it in ${spec.position ? basename(spec.position.file) : SYNC_FILE} or run with --trust`,
  );
}
