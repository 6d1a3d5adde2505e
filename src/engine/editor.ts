/**
 * What editors need of the engine, in one place for `src/index.ts`: a file's text checked as `validate`
 * checks it (a module's template with the module's types and functions), the settings of a template as
 * `show` reports them, the composed schema of `.sync.yml`.
 */

// The offset of a line and column (the LSP's diagnostics of a long file turn thousands of them).
export { offsetAt as offsetOf } from '../shared/position.js';
export {
  checkEppText,
  checkTemplateManifestText,
  checkTemplateSchemaText,
  type EppCheck,
  fromProblem,
  type ReadText,
  type SettingInfo,
  type SpanProblem,
  type TemplateContext,
  templateContextOf,
} from './file-checks.js';
export { settingsSchema, typeLabel } from './inspect/schema.js';
export {
  type ModuleContext,
  moduleContextOf,
  moduleDefinitionOf,
  moduleNamesOf,
} from './module-context.js';
export { SYNC_FILE } from './project-config.js';
export { type SettingView, settingOriginText, settingViews } from './setting-views.js';
export { PUPPET_TOP_SCOPE_NAMES, TOP_SCOPE_NAMES } from './static-analysis.js';
export { syncSchemaOf } from './sync-schema.js';
