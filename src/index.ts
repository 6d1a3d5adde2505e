/**
 * Pantograph's public API: everything the CLI uses, for other clients (a web UI, scripts, tests).
 *
 * ```ts
 * import { loadProject, plan, status, apply, renderEpp } from 'pantograph';
 * const project = await loadProject('.');
 * const renderPlan = await plan(project);
 * ```
 */

export { type AnswerMemo, answerMemo } from './engine/answer-memo.js';
// `pantograph convert`: a PDK V1 .sync.yml turned into V2.
export {
  type Conversion,
  type ConvertedTemplate,
  type ConvertOptions,
  convertSyncFile,
  writeConversion,
} from './engine/convert.js';
// Editor support (the language server, `pantograph schema`): one file's text checked, settings as `show`
// sees them, the composed schema of a project's .sync.yml.
export * from './engine/editor.js';
export { EngineError, type EngineErrorCode } from './engine/errors.js';
export {
  type InspectCall,
  type InspectFile,
  type InspectOrigin,
  type InspectParameter,
  type InspectTemplate,
  type InspectTree,
  inspect,
} from './engine/inspect.js';
export {
  type DetailedPlan,
  ENGINE_VERSION,
  plan,
  planDetailed,
  type ResolvedTemplate,
  type SettingOrigin,
} from './engine/plan.js';
export { LOCK_FILE, loadProject, type Project, type ProjectOptions } from './engine/project.js';
export {
  type PlanAtOptions,
  type PlanInputs,
  type ProjectPlan,
  planProjectAt,
} from './engine/project-plan.js';
// Template repositories and composition: a project's .sync.yml -> a RenderPlan (pure data).
export type {
  PlannedFile,
  PlannedSource,
  PlannedTemplate,
  PostCommand,
  Problem,
  RenderPlan,
} from './engine/render-plan.js';
export { type Stub, type StubOptions, stubSyncConfig } from './engine/stub.js';
export type { FencedDirectory, TemplateFence } from './engine/template-fence.js';
export type { V1Project } from './engine/v1/project.js';
// A V1 or modulesync .sync.yml rendered as it is: `loadProject(dir, { templateUrl })` sets `project.v1`.
export type { RubyRepositoryKind } from './engine/v1/repository.js';
export type { TemplateUrlOrigin } from './engine/v1/template-url.js';
export {
  hasErrors,
  type ValidateOptions,
  type ValidationResult,
  validateProject,
} from './engine/validate.js';
// EPP, standalone.
export * from './epp/index.js';
// Where `epp('x.epp')` leads on disk: inside the template's directory only, as a render reads it.
export { type PathInside, resolveInside } from './epp/node-files.js';
// Many repositories at once (`pantograph fleet`).
export * from './fleet/index.js';
// Applying a RenderPlan to a project.
export {
  type ApplyOptions,
  type ApplyResult,
  apply,
  FileDigests,
  type FileState,
  type LockFile,
  type ResolveOptions,
  type ResolveResult,
  readLock,
  remove,
  resolve,
  type StatusEntry,
  type StatusReport,
  SyncError,
  type SyncErrorCode,
  status,
  unifiedDiff,
} from './sync/index.js';
