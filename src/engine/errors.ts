/**
 * Engine errors: a stable `code`, a short message, the position in the user's file when there is one, and
 * a hint. Loaders collect problems into lists; they throw an `EngineError` only where continuing makes no
 * sense (a V1 `.sync.yml`, unparsable YAML, an unreachable git remote). An error may carry several
 * problems found at once (`problems`), e.g. every YAML syntax error of a file.
 */
import type { Position } from './model.js';
import type { Problem } from './render-plan.js';

export type EngineErrorCode =
  // .sync.yml
  | 'SYNC_NOT_FOUND'
  | 'SYNC_READ'
  | 'SYNC_ENCODING'
  | 'SYNC_YAML'
  | 'SYNC_NOT_MAPPING'
  | 'SYNC_V1'
  | 'SYNC_MODULESYNC'
  | 'SYNC_VERSION'
  | 'SYNC_UNKNOWN_KEY'
  | 'SYNC_INVALID'
  | 'SYNC_SECTION'
  | 'SYNC_DUPLICATE_TEMPLATE'
  | 'SYNC_AMBIGUOUS_SCALAR'
  | 'SYNC_POST_COMMAND'
  | 'SYNC_DELETE_PRODUCED'
  // `epp render --values-file` (YAML read as .sync.yml is)
  | 'VALUES_YAML'
  | 'VALUES_ENCODING'
  // template repositories
  | 'TEMPLATE_JSON'
  | 'TEMPLATE_INVALID'
  | 'TEMPLATE_NAME'
  | 'TEMPLATE_SCHEMA'
  | 'TEMPLATE_SYMLINK'
  | 'TEMPLATE_FILE_CONFLICT'
  | 'TEMPLATE_RESERVED_PATH'
  | 'TEMPLATE_UNKNOWN_HOOK'
  | 'TEMPLATE_DUPLICATE_HOOK'
  | 'TEMPLATE_READ'
  | 'TEMPLATE_REQUIRES'
  // sources
  | 'SOURCE_NOT_FOUND'
  | 'SOURCE_CREDENTIALS_IN_FILE'
  | 'GIT_NOT_FOUND'
  | 'GIT_UNREACHABLE'
  | 'GIT_BAD_REF'
  | 'GIT_OFFLINE'
  | 'GIT_FAILED'
  | 'GIT_TOO_LARGE'
  // composition, settings, hooks and rendering (engine part B)
  | 'COMPOSITION_UNKNOWN_TEMPLATE'
  | 'COMPOSITION_EXCLUDE_UNKNOWN'
  | 'COMPOSITION_EXCLUDE_NOT_ALWAYS_APPLY'
  | 'COMPOSITION_SETTINGS_NOT_APPLIED'
  | 'COMPOSITION_PATH_CLAIMED'
  | 'SHARED_CYCLE'
  | 'SHARED_SELF_SUBSCRIPTION'
  | 'SHARED_UNDECLARED'
  | 'SHARED_SCHEMA_MISMATCH'
  | 'SHARED_PUBLISHERS_DISAGREE'
  | 'SHARED_UNKNOWN'
  | 'SHARED_NOT_PUBLISHED'
  | 'SETTINGS_INVALID'
  | 'SETTINGS_UNKNOWN_KEY'
  | 'SETTINGS_KNOCKOUT_UNMATCHED'
  | 'HOOK_FAILED'
  | 'HOOK_INVALID_STATE'
  | 'HOOK_CHANGED_READONLY'
  | 'HOOK_ADDED_FILES'
  | 'HOOK_TIMEOUT'
  | 'HOOK_OUTPUT'
  | 'HOOK_PENDING_TIMER'
  | 'HOOK_UNTRUSTED'
  // what a template file or a Puppet hook says with notice(), warning(), err()
  | 'EPP_LOG'
  | 'RENDER_MISSING_PARAMETER'
  | 'RENDER_UNKNOWN_PARAMETER'
  | 'RENDER_PATH_REFUSED'
  | 'RENDER_READ'
  // static analysis and inspection (validate, inspect)
  | 'ANALYSIS_UNKNOWN_VARIABLE'
  | 'ANALYSIS_UNKNOWN_SETTING'
  | 'NESTED_MISSING_PARAMETER'
  | 'NESTED_UNKNOWN_PARAMETER'
  | 'STUB_EXISTS'
  | 'PROJECT_METADATA'
  // authors' tools (new, docs, test) and V1 conversion
  | 'AUTHOR_NAME'
  | 'AUTHOR_EXISTS'
  | 'AUTHOR_NO_REPOSITORY'
  | 'AUTHOR_UNKNOWN_TEMPLATE'
  | 'AUTHOR_README_HAND_WRITTEN'
  | 'AUTHOR_NAME_MISMATCH'
  | 'AUTHOR_DEFAULT_INVALID'
  | 'AUTHOR_CONVERT_SETTING_UNKNOWN'
  | 'CONVERT_CONFLICT'
  | 'CONVERT_UNKNOWN_SETTING'
  | 'CONVERT_UNKNOWN_FILE'
  | 'CONVERT_NO_EFFECT'
  | 'CONVERT_FLAG_VALUE'
  | 'CONVERT_DELETE_PRODUCED'
  | 'CONVERT_NOT_PDK'
  | 'CONVERT_SYMBOL'
  | 'CONVERT_INVALID'
  // a fleet repository's own files naming a template directory in the fleet's workdir (template-fence.ts)
  | 'TEMPLATE_FENCED'
  // V1 template repositories run as they are (src/engine/v1)
  | 'V1_TEMPLATE_URL'
  | 'V1_DEFAULT_TEMPLATE'
  | 'V1_NOT_V1_REPOSITORY'
  | 'V1_UNTRUSTED'
  | 'V1_RUBY_MISSING'
  | 'V1_WORKER'
  | 'V1_TIME_LIMIT'
  | 'V1_OUTPUT_LIMIT'
  | 'V1_RENDER'
  | 'V1_CONFIG'
  | 'V1_CONFIG_YAML'
  | 'V1_UNCLOSED_TAG'
  | 'V1_SYNC_KEY'
  // new class|defined_type|task|fact|function|provider|transport|test (objects.ts, object-*.ts)
  | 'OBJECT_NAME'
  | 'OBJECT_OPTION'
  | 'OBJECT_EXISTS'
  | 'OBJECT_NOT_MODULE'
  | 'OBJECT_MODULE_NAME'
  | 'OBJECT_NOT_FOUND'
  | 'OBJECT_TEMPLATE'
  // fleet (src/fleet)
  | 'FLEET_NOT_FOUND'
  | 'FLEET_READ'
  | 'FLEET_YAML'
  | 'FLEET_INVALID'
  | 'FLEET_DUPLICATE'
  | 'FLEET_PATH'
  | 'FLEET_SELECT'
  | 'FLEET_SHARD'
  | 'FLEET_USAGE'
  | 'FLEET_GIT'
  | 'FLEET_APPLY'
  | 'FLEET_CONFLICT'
  | 'FLEET_ADOPT'
  | 'FLEET_FORGE'
  | 'FLEET_REPORT'
  | 'FLEET_LOCKED'
  | 'FLEET_INTERRUPTED'
  | 'FLEET_MIXED'
  | 'FLEET_MODULESYNC'
  | 'FLEET_OFFLINE';

export class EngineError extends Error {
  override name = 'EngineError';
  readonly position: Position | undefined;
  readonly hint: string | undefined;
  /** Every problem this error stands for; at least the error itself. */
  readonly problems: readonly Problem[];

  constructor(
    readonly code: EngineErrorCode,
    message: string,
    options: {
      position?: Position | undefined;
      hint?: string | undefined;
      problems?: readonly Problem[];
    } = {},
  ) {
    super(message);
    this.position = options.position;
    this.hint = options.hint;
    this.problems = options.problems?.length ? options.problems : [this.toProblem()];
  }

  /** `file:line:col` when known, else ''. */
  get where(): string {
    const p = this.position;
    return p ? `${p.file}:${p.line}:${p.column}` : '';
  }

  toProblem(): Problem {
    return problem('error', this.code, this.message, this.position, this.hint);
  }
}

/** Builds a Problem from a code, message and optional position, leaving absent fields out. */
export function problem(
  severity: Problem['severity'],
  code: EngineErrorCode,
  message: string,
  position?: Position,
  hint?: string,
): Problem {
  return {
    severity,
    code,
    message,
    ...(position ? { file: position.file, line: position.line, column: position.column } : {}),
    ...(hint !== undefined ? { hint } : {}),
  };
}
