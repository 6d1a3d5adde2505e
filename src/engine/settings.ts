/**
 * Settings layers and how they merge (DESIGN 5.4).
 *
 * A template's settings are built from layers, lowest first: its `default_settings`, the shared settings
 * it subscribes to, and the project's section in `.sync.yml`. Merging an upper layer onto a lower one:
 * - hashes deep-merge: the lower layer's keys keep their order, new keys go last;
 * - arrays take the union, lower first, without duplicates (deep equality); a string item `---item`
 *   removes `item` (a knockout matching nothing is dropped with a warning) and an item `---` alone clears
 *   what was inherited, as PDK users know it;
 * - a `ReplaceValue` (`!replace` in YAML) replaces the inherited value whole, items taken literally;
 * - `null` means "not set here": the lower value stays (a project's `key: ~` brings the default back);
 * - anything else replaces, and the schema judges the result.
 * Pure functions: inputs are never modified.
 */
import { float, integer, PFloat, type PHash, type Value } from '../epp/runtime/values.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { EngineError, problem } from './errors.js';
import { hookKeyPosition } from './hook-source.js';
import { type CompiledSchema, compileSettingsSchema, type SchemaViolation } from './json-schema.js';
import type { Data, DataMap, LoadedTemplate, Position, SyncConfig, SyncData } from './model.js';
import { ReplaceValue } from './model.js';
import type { Problem } from './render-plan.js';
import type { SandboxLimits } from './sandbox.js';
import { SchemaLimitError, schemaLimitProblem, schemaLimits } from './schema-sandbox.js';
import { escapePointerSegment as escapePointer, jsonPointer, parsePointer } from './yaml-data.js';

/** The knockout prefix, and on its own the "clear the inherited array" item. */
export const KNOCKOUT = '---';

/** A knockout that matched nothing: dropped, and reported. */
export interface MergeWarning {
  readonly code: 'SETTINGS_KNOCKOUT_UNMATCHED';
  readonly message: string;
  /** JSON pointer (within the merged settings) of the knockout item in the upper layer. */
  readonly pointer: string;
}

export interface MergeResult<T> {
  readonly value: T;
  readonly warnings: readonly MergeWarning[];
}

export function isDataMap(value: unknown): value is DataMap {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ReplaceValue)
  );
}

/** Deep equality of settings data; Integer and Float differ (`1` vs `1.0`), as values of different types. */
export function dataEquals(a: Data | undefined, b: Data | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => dataEquals(item, b[i]));
  }
  if (isDataMap(a)) {
    if (!isDataMap(b)) return false;
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((k) => Object.hasOwn(b, k) && dataEquals(a[k], b[k]))
    );
  }
  // NaN is the only value not equal to itself.
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}

/**
 * Whether two settings values are the same in every respect that rendering can see: like
 * {@link dataEquals}, but hash keys must also come in the same order and `-0` differs from `0`.
 */
export function identicalData(a: Data | undefined, b: Data | undefined): boolean {
  if (a === b) return typeof a !== 'number' || Object.is(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!identicalData(a[i], b[i])) return false;
    return true;
  }
  if (isDataMap(a)) {
    if (!isDataMap(b)) return false;
    const keys = Object.keys(a);
    const other = Object.keys(b);
    if (keys.length !== other.length) return false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      if (k !== other[i] || !identicalData(a[k], b[k])) return false;
    }
    return true;
  }
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}

/** Sets an own property, also for a key like `__proto__` that plain assignment would misread. */
export function setOwn<T>(target: { [key: string]: T }, key: string, value: T): void {
  // Only `__proto__` has a setter on Object.prototype; plain assignment is much faster for the rest.
  if (key === '__proto__' || !isPlainTarget(target))
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Whether assigning to the target's keys creates plain own properties (no setters on its prototype). */
function isPlainTarget(target: object): boolean {
  const proto = Object.getPrototypeOf(target) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A deep copy of settings data (so later layers and hooks never alias an input). */
export function cloneData(value: Data): Data {
  if (Array.isArray(value)) return value.map(cloneData);
  if (isDataMap(value)) {
    const out: DataMap = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, cloneData(v));
    return out;
  }
  return value;
}

/** Strips `ReplaceValue` wrappers: a layer written on its own has nothing to replace. */
export function plainData(value: SyncData): Data {
  if (value instanceof ReplaceValue) return cloneData(value.value);
  if (Array.isArray(value)) return value.map(plainData);
  if (typeof value === 'object' && value !== null) {
    const out: DataMap = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, plainData(v));
    return out;
  }
  return value;
}

/**
 * Merges `upper` onto `lower` by the layer rules. `lower` undefined means nothing inherited. `pointer` is
 * the JSON pointer of this value, used in warnings.
 */
export function mergeData(lower: Data | undefined, upper: SyncData, pointer = ''): MergeResult<Data> {
  const warnings: MergeWarning[] = [];
  const value = merge(lower, upper, pointer, warnings);
  return { value, warnings };
}

/** Merges a settings hash layer onto another (the common case: one template's settings). */
export function mergeSettings(
  lower: DataMap,
  upper: { readonly [key: string]: SyncData },
  pointer = '',
): MergeResult<DataMap> {
  const warnings: MergeWarning[] = [];
  const value = mergeMaps(lower, upper, pointer, warnings);
  return { value, warnings };
}

function merge(lower: Data | undefined, upper: SyncData, pointer: string, warnings: MergeWarning[]): Data {
  if (upper === null) return lower === undefined ? null : cloneData(lower);
  if (upper instanceof ReplaceValue) return cloneData(upper.value);
  if (Array.isArray(upper)) return mergeArrays(Array.isArray(lower) ? lower : [], upper, pointer, warnings);
  if (typeof upper === 'object') return mergeMaps(isDataMap(lower) ? lower : {}, upper, pointer, warnings);
  return upper;
}

function mergeMaps(
  lower: DataMap,
  upper: { readonly [key: string]: SyncData },
  pointer: string,
  warnings: MergeWarning[],
): DataMap {
  const out: DataMap = {};
  for (const [k, v] of Object.entries(lower)) {
    setOwn(
      out,
      k,
      Object.hasOwn(upper, k)
        ? merge(v, upper[k]!, `${pointer}/${escapePointer(k)}`, warnings)
        : cloneData(v),
    );
  }
  for (const [k, v] of Object.entries(upper)) {
    if (!Object.hasOwn(lower, k))
      setOwn(out, k, merge(undefined, v, `${pointer}/${escapePointer(k)}`, warnings));
  }
  return out;
}

function mergeArrays(
  lower: readonly Data[],
  upper: readonly SyncData[],
  pointer: string,
  warnings: MergeWarning[],
): Data[] {
  let out: Data[] = lower.map(cloneData);
  upper.forEach((item, i) => {
    if (item === KNOCKOUT) {
      out = [];
      return;
    }
    if (typeof item === 'string' && item.startsWith(KNOCKOUT)) {
      const target = item.slice(KNOCKOUT.length);
      const kept = out.filter((x) => !dataEquals(x, target));
      if (kept.length === out.length) {
        warnings.push({
          code: 'SETTINGS_KNOCKOUT_UNMATCHED',
          message: `knockout '${item}' matches no inherited item; it is dropped`,
          pointer: `${pointer}/${i}`,
        });
      }
      out = kept;
      return;
    }
    const value = plainData(item);
    if (!out.some((x) => dataEquals(x, value))) out.push(value);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Settings data <-> Puppet values. Not `fromJs`/`toJs`: those turn a whole Float (`1.0`) into an Integer.
// In settings data Integers are bigint and Floats number (as YAML parses them); in Puppet values an Integer
// is a number (bigint only beyond 2^53) and a Float a PFloat, so the distinction survives both ways.

/** Settings data as a Puppet value (hashes become Maps, null undef). */
export function dataToValue(data: Data): Value {
  if (data === null) return undefined;
  switch (typeof data) {
    case 'bigint':
      return integer(data);
    case 'number':
      return float(data);
    case 'object': {
      if (Array.isArray(data)) return data.map(dataToValue);
      const out: PHash = new Map();
      for (const [k, v] of Object.entries(data)) out.set(k, dataToValue(v));
      return out;
    }
    default:
      return data;
  }
}

/** Thrown by {@link valueToData} for a value that is no settings data (a regexp, a type, a non-string key). */
export class NotDataError extends Error {
  override name = 'NotDataError';
  constructor(
    message: string,
    /** JSON pointer of the offending value. */
    readonly pointer: string,
  ) {
    super(message);
  }
}

/** A Puppet value as settings data; undef becomes null. Throws NotDataError for anything else. */
export function valueToData(value: Value, pointer = ''): Data {
  if (value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(value); // an Integer
  if (value instanceof PFloat) return value.value;
  if (Array.isArray(value)) return value.map((v, i) => valueToData(v, `${pointer}/${i}`));
  if (value instanceof Map) {
    const out: DataMap = {};
    for (const [k, v] of value) {
      if (typeof k !== 'string') throw new NotDataError(`hash key ${String(k)} is not a string`, pointer);
      setOwn(out, k, valueToData(v, `${pointer}/${escapePointer(k)}`));
    }
    return out;
  }
  throw new NotDataError(`a ${value.constructor.name} is not data`, pointer || '/');
}

// ---------------------------------------------------------------------------------------------------
// Validation of resolved settings (DESIGN 5.6): against the template's schema, or one inferred from its
// `default_settings` and subscriptions; all errors at once, each pointing where the value was written.

export interface SettingsValidationContext {
  readonly config: Pick<SyncConfig, 'settings' | 'sharedSettings' | 'positions'>;
  /** The schema the publishers of a shared setting declare. */
  readonly sharedSchema: (name: string) => Readonly<Record<string, unknown>> | undefined;
  /**
   * For a subscribed setting whose value is the publishers' (no hook or project section changed it):
   * where they wrote it, and whether its problems are reported there already. Undefined otherwise.
   */
  readonly fromPublishers?: (name: string) => PublishedSetting | undefined;
  /** Whether the schema of a shared setting comes from a trusted source (unknown: not). */
  readonly sharedSchemaTrusted?: (name: string) => boolean;
  /** The limits an untrusted template's schema is checked under (the plan's sandbox's; else the environment's). */
  readonly untrustedLimits?: SandboxLimits;
  /** The file of the hook that last set a top-level setting, when one did (and no later layer). */
  readonly setByHook?: (name: string) => string | undefined;
}

/** A subscribed value as its publishers gave it (see `SettingsValidationContext.fromPublishers`). */
export interface PublishedSetting {
  /** It broke the publishers' schema, and that was reported at the publisher: the subscriber is not to blame. */
  readonly reported: boolean;
  /** Where the publisher wrote the value at `pointer` (within the setting). */
  positionOf(pointer: string): Position;
}

const compiledSchemas = new WeakMap<LoadedTemplate, CompiledSchema | EngineError>();

/** The JSON Schema of a template without `template_schema.json`: its defaults' types, nothing else. */
export function inferSchema(
  t: LoadedTemplate,
  sharedSchema: SettingsValidationContext['sharedSchema'],
): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(t.manifest.default_settings)) setOwn(properties, k, typeSchema(v));
  for (const name of t.manifest.setting_subscriptions) {
    if (!Object.hasOwn(properties, name)) setOwn(properties, name, sharedSchema(name) ?? {});
  }
  return { type: 'object', properties, additionalProperties: false };
}

function typeSchema(value: Data): Record<string, unknown> {
  if (typeof value === 'bigint') return { type: 'integer' };
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'string') return { type: 'string' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) return { type: 'array' };
  if (value !== null) return { type: 'object' };
  return {};
}

function compiledSchemaOf(t: LoadedTemplate, ctx: SettingsValidationContext): CompiledSchema | EngineError {
  let compiled = compiledSchemas.get(t);
  if (!compiled) {
    try {
      compiled = t.schema
        ? compileSettingsSchema(t.schema, t.schemaFile ?? t.manifestFile, t.schemaPositions)
        : compileSettingsSchema(inferSchema(t, ctx.sharedSchema), t.manifestFile);
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      compiled = e;
    }
    compiledSchemas.set(t, compiled);
  }
  return compiled;
}

/**
 * Whether the schema `t`'s settings are checked against holds what an untrusted template wrote: its own
 * `template_schema.json`, or the schema of a shared setting it subscribes to, which the one inferred
 * from its defaults holds (the rest of that one is Pantograph's).
 */
function authoredUntrusted(t: LoadedTemplate, ctx: SettingsValidationContext): boolean {
  if (t.schema) return !t.source.trusted;
  return t.manifest.setting_subscriptions.some(
    (name) => ctx.sharedSchema(name) !== undefined && !(ctx.sharedSchemaTrusted?.(name) ?? false),
  );
}

/** Whether a schema decides about unknown top-level keys itself (else `validate` refuses unknown ones). */
export function judgesUnknownKeys(schema: Readonly<Record<string, unknown>>): boolean {
  return ['additionalProperties', 'unevaluatedProperties', 'patternProperties'].some((k) =>
    Object.hasOwn(schema, k),
  );
}

/** The last settings validated per template (a copy), the configuration they were judged by, and the verdict. */
const lastValidations = new WeakMap<
  LoadedTemplate,
  { readonly settings: DataMap; readonly config: object; readonly problems: readonly Problem[] }
>();

/**
 * Problems of a template's resolved settings; undef (null) top-level settings count as absent. Planning a
 * project again with the same settings does not validate them again.
 */
export function validateSettings(
  t: LoadedTemplate,
  settings: DataMap,
  ctx: SettingsValidationContext,
): Problem[] {
  const last = lastValidations.get(t);
  if (last && last.config === ctx.config && identicalData(last.settings, settings)) return [...last.problems];
  const problems = validateAfresh(t, settings, ctx);
  lastValidations.set(t, { settings: cloneData(settings) as DataMap, config: ctx.config, problems });
  return [...problems];
}

/**
 * What the schema `t`'s settings are checked against says of `settings` (undef top-level settings count
 * as absent): its violations, or the problems that kept it from judging (a schema that does not compile,
 * a limit hit). No schema file the loader could use: nothing to say, it has been reported.
 */
export function schemaCheck(
  t: LoadedTemplate,
  settings: DataMap,
  ctx: SettingsValidationContext,
):
  | { readonly schema: Readonly<Record<string, unknown>>; readonly violations: SchemaViolation[] }
  | Problem[] {
  // A schema file the loader could not use has been reported; inferring one instead would add noise.
  if (t.schemaFile !== undefined && t.schema === undefined) return [];
  const compiled = compiledSchemaOf(t, ctx);
  if (compiled instanceof EngineError) return [...compiled.problems];
  const data: DataMap = {};
  for (const [k, v] of Object.entries(settings)) if (v !== null) setOwn(data, k, v);
  // A schema an untrusted template wrote is checked under its limits: a pattern may backtrack for ever,
  // nested `anyOf`s try every combination.
  const limits = schemaLimits(!authoredUntrusted(t, ctx), ctx.untrustedLimits);
  try {
    return { schema: compiled.schema, violations: compiled.validate(data, undefined, limits) };
  } catch (e) {
    if (!(e instanceof SchemaLimitError)) throw e;
    return [schemaLimitProblem(t.name, e, t.schemaFile ?? t.manifestFile, t.schemaPositions)];
  }
}

function validateAfresh(t: LoadedTemplate, settings: DataMap, ctx: SettingsValidationContext): Problem[] {
  const check = schemaCheck(t, settings, ctx);
  if (Array.isArray(check)) return check;
  const checked = check.violations;
  const data: DataMap = {};
  for (const [k, v] of Object.entries(settings)) if (v !== null) setOwn(data, k, v);
  // A publisher's wrong value is the publisher's error, reported once, where it wrote it. A value of the
  // wrong type is not also said to be none of an enum's values (`mock_with: 5`): one error at one place.
  const wrongType = new Set(checked.filter((v) => v.keyword === 'type').map((v) => v.pointer));
  const violations = checked.filter(
    (v) =>
      !publishedSetting(t, ctx, v.pointer)?.reported &&
      !((v.keyword === 'enum' || v.keyword === 'const') && wrongType.has(v.pointer)),
  );
  if (t.schema && !judgesUnknownKeys(check.schema)) {
    // A subscription is declared by `setting_subscriptions` (its value judged by the publishers' schema),
    // as in a schema inferred from the defaults: the subscriber's own schema may add rules, need not.
    const declared = [
      ...Object.keys((check.schema.properties as object | undefined) ?? {}),
      ...t.manifest.setting_subscriptions,
    ];
    for (const k of Object.keys(data)) {
      if (declared.includes(k)) continue;
      const suggestion = didYouMean(k, declared);
      violations.push({
        pointer: `/${escapePointer(k)}`,
        message: `unknown key '${k}'`,
        keyword: 'additionalProperties',
        params: { additionalProperty: k },
        ...(suggestion !== undefined ? { suggestion } : {}),
      });
    }
  }
  const problems = violations.map((v) => {
    const unknown = v.keyword === 'additionalProperties' || v.keyword === 'unevaluatedProperties';
    const where = settingPosition(t, settings, ctx, v.pointer, unknown);
    let hint = v.suggestion !== undefined ? `did you mean '${v.suggestion}'?` : v.hint;
    if (unknown) {
      const parent = v.pointer.slice(0, v.pointer.lastIndexOf('/'));
      const key = parsePointer(v.pointer).at(-1);
      if (hint === undefined && parent === '' && (key === 'unmanaged' || key === 'delete')) {
        // A V1 habit: per-file flags are lists of paths under pdk_template in V2.
        const files = t.manifest.v1_files.length > 0 ? t.manifest.v1_files.join(', ') : 'path';
        // The template writes these files, so V1's `delete` is V2's `unmanaged` (a produced path under
        // `delete` is SYNC_DELETE_PRODUCED), the files then removed by hand.
        hint =
          key === 'unmanaged'
            ? `\`unmanaged: true\` is V1's, per file; in V2 list the paths under pdk_template: \`unmanaged: [${files}]\``
            : `\`delete: true\` is V1's, per file; in V2 list the files a template writes under pdk_template: \`unmanaged: [${files}]\`, then remove them yourself (\`delete\` takes only paths no template writes)`;
      }
      const message = `unknown setting '${key}' for template '${t.name}'${parent ? ` in ${parent.slice(1)}` : ''}`;
      return problem('error', 'SETTINGS_UNKNOWN_KEY', message, where, hint);
    }
    const name = v.pointer ? `setting '${parsePointer(v.pointer).join('.')}'` : 'settings';
    return problem('error', 'SETTINGS_INVALID', `${t.name}: ${name} ${v.message}`, where, hint);
  });
  // In the order of the files, as a reader goes through them.
  return problems.sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

/** The publishers' value of the subscribed setting `pointer` is in, if it is theirs untouched. */
function publishedSetting(
  t: LoadedTemplate,
  ctx: SettingsValidationContext,
  pointer: string,
): PublishedSetting | undefined {
  const top = parsePointer(pointer)[0];
  if (top === undefined || !t.manifest.setting_subscriptions.includes(top)) return undefined;
  return ctx.fromPublishers?.(top);
}

/**
 * Where a setting's value was written: the project's section, its shared override, the publisher's
 * template.json, or the template's own.
 */
function settingPosition(
  t: LoadedTemplate,
  settings: DataMap,
  ctx: SettingsValidationContext,
  pointer: string,
  atKey: boolean,
): Position {
  const config = ctx.config;
  const segments = parsePointer(pointer);
  const top = segments[0];
  const sync = (p: string) => (atKey ? config.positions.keyPositionOf(p) : config.positions.positionOf(p));
  const section = config.settings[t.name];
  if (top !== undefined && section && Object.hasOwn(section, top) && section[top] !== null) {
    return sync(jsonPointer([t.name]) + writtenPointer(settings, section, pointer));
  }
  const shared = config.sharedSettings;
  if (top !== undefined && t.manifest.setting_subscriptions.includes(top) && Object.hasOwn(shared, top)) {
    const at = writtenPointer(settings[top] ?? null, shared[top]!, jsonPointer(segments.slice(1)));
    return sync(jsonPointer(['pdk_template', 'shared_settings', top]) + at);
  }
  const published = publishedSetting(t, ctx, pointer);
  if (published) return published.positionOf(jsonPointer(segments.slice(1)));
  if (top === undefined && Object.hasOwn(config.settings, t.name)) {
    return config.positions.keyPositionOf(jsonPointer([t.name]));
  }
  // A hook's value is placed in the hook, where it writes the setting's name (else at the hook's file).
  const hook = top !== undefined ? ctx.setByHook?.(top) : undefined;
  if (hook !== undefined) return hookKeyPosition(hook, top!) ?? { file: hook, line: 1, column: 1 };
  const manifest = `/default_settings${writtenPointer(settings, t.manifest.default_settings, pointer)}`;
  return atKey ? t.manifestPositions.keyPositionOf(manifest) : t.manifestPositions.positionOf(manifest);
}

/**
 * The pointer, in the value as one layer wrote it, of the value at `pointer` in the merged result. Array
 * items are found by value (merging moves them); the walk stops where the layer did not write the value,
 * except that an unknown key the layer wrote is still reached.
 */
export function writtenPointer(merged: Data, written: SyncData, pointer: string): string {
  let out = '';
  let m: Data | undefined = merged;
  let w: SyncData | undefined = written;
  for (const segment of parsePointer(pointer)) {
    if (w instanceof ReplaceValue) w = w.value;
    if (Array.isArray(w)) {
      const item: Data | undefined = Array.isArray(m) ? m[Number(segment)] : undefined;
      const j: number = item === undefined ? -1 : w.findIndex((x) => dataEquals(plainData(x), item));
      if (j < 0) break;
      out += `/${j}`;
      m = item;
      w = w[j];
    } else if (typeof w === 'object' && w !== null && Object.hasOwn(w, segment)) {
      out += `/${escapePointer(segment)}`;
      m = isDataMap(m) ? m[segment] : undefined;
      w = w[segment];
    } else {
      break;
    }
  }
  return out;
}
