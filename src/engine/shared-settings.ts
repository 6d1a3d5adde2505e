/**
 * Shared settings (DESIGN 5.5): templates publish values under declared names, other templates subscribe.
 *
 * A publisher's hooks may change what it publishes from its own resolved settings, so templates are
 * resolved in dependency order: publishers before their subscribers, ties in applied order. Several
 * publishers of one name combine in applied order: arrays concatenate without duplicates, hashes
 * deep-merge with the earlier publisher winning, scalars take the earliest value (disagreement is
 * reported). The project's `pdk_template.shared_settings` then merges onto the combined value by the
 * layer rules of `settings.ts`.
 */
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { EngineError, problem } from './errors.js';
import { compileSettingsSchema, type SchemaViolation } from './json-schema.js';
import type { Data, DataMap, LoadedTemplate, SyncConfig } from './model.js';
import type { Problem } from './render-plan.js';
import type { SandboxLimits } from './sandbox.js';
import { SchemaLimitError, schemaLimitProblem, schemaLimits } from './schema-sandbox.js';
import {
  cloneData,
  dataEquals,
  isDataMap,
  mergeData,
  type PublishedSetting,
  setOwn,
  writtenPointer,
} from './settings.js';
import { jsonPointer, parsePointer } from './yaml-data.js';

export interface DependencyOrder {
  readonly order: readonly LoadedTemplate[];
  readonly problems: readonly Problem[];
}

/** The names each applied template publishes, and who publishes each name (in applied order). */
export function publishersByName(applied: readonly LoadedTemplate[]): Map<string, LoadedTemplate[]> {
  const out = new Map<string, LoadedTemplate[]>();
  for (const t of applied) {
    for (const name of Object.keys(t.manifest.shared_settings)) {
      const list = out.get(name);
      if (list) list.push(t);
      else out.set(name, [t]);
    }
  }
  return out;
}

/**
 * Orders the applied templates so that every publisher comes before its subscribers; among templates
 * that are ready, the earliest in the applied order goes first. A cycle is an error naming it; its
 * templates then follow in applied order, so that the rest can still be checked.
 */
export function dependencyOrder(applied: readonly LoadedTemplate[]): DependencyOrder {
  const problems: Problem[] = [];
  const publishers = publishersByName(applied);
  const deps = new Map<LoadedTemplate, Set<LoadedTemplate>>();
  for (const t of applied) {
    const set = new Set<LoadedTemplate>();
    t.manifest.setting_subscriptions.forEach((name, i) => {
      for (const p of publishers.get(name) ?? []) {
        if (p === t) {
          problems.push(
            problem(
              'error',
              'SHARED_SELF_SUBSCRIPTION',
              `template '${t.name}' subscribes to '${name}', which it publishes itself`,
              t.manifestPositions.positionOf(jsonPointer(['setting_subscriptions', i])),
              'read your own value from your settings instead',
            ),
          );
        } else {
          set.add(p);
        }
      }
    });
    deps.set(t, set);
  }
  const order: LoadedTemplate[] = [];
  const done = new Set<LoadedTemplate>();
  while (order.length < applied.length) {
    const next = applied.find((t) => !done.has(t) && [...deps.get(t)!].every((d) => done.has(d)));
    if (next) {
      order.push(next);
      done.add(next);
      continue;
    }
    const rest = applied.filter((t) => !done.has(t));
    const cycle = findCycle(rest, deps);
    const first = cycle[0]!;
    problems.push(
      problem(
        'error',
        'SHARED_CYCLE',
        `shared settings form a cycle: ${[...cycle, first].map((t) => t.name).join(' -> ')}`,
        first.manifestPositions.positionOf('/setting_subscriptions'),
        'a template may not depend, through subscriptions, on a template that depends on it',
      ),
    );
    for (const t of rest) {
      order.push(t);
      done.add(t);
    }
  }
  return { order, problems };
}

/** A cycle among `rest` (each has an unresolved dependency inside `rest`), each template once. */
function findCycle(
  rest: readonly LoadedTemplate[],
  deps: Map<LoadedTemplate, Set<LoadedTemplate>>,
): LoadedTemplate[] {
  const path: LoadedTemplate[] = [];
  let t = rest[0]!;
  while (!path.includes(t)) {
    path.push(t);
    t = [...deps.get(t)!].find((d) => rest.includes(d))!;
  }
  return path.slice(path.indexOf(t));
}

/** A schema without `title` and `description` (anywhere), for comparing what two publishers declare. */
function schemaShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(schemaShape);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k !== 'title' && k !== 'description') out[k] = schemaShape(v);
    }
    return out;
  }
  return value;
}

/** Publishers of one name must declare deep-equal schemas (title and description aside). */
export function checkPublisherSchemas(applied: readonly LoadedTemplate[]): Problem[] {
  const problems: Problem[] = [];
  for (const [name, list] of publishersByName(applied)) {
    const first = list[0]!;
    const shape = JSON.stringify(schemaShape(first.manifest.shared_settings[name]?.schema ?? null));
    for (const other of list.slice(1)) {
      if (JSON.stringify(schemaShape(other.manifest.shared_settings[name]?.schema ?? null)) === shape)
        continue;
      problems.push(
        problem(
          'error',
          'SHARED_SCHEMA_MISMATCH',
          `templates '${first.name}' and '${other.name}' both publish '${name}' with different schemas`,
          other.manifestPositions.positionOf(jsonPointer(['shared_settings', name, 'schema'])),
          'publishers of one shared setting must declare the same schema (title and description aside)',
        ),
      );
    }
  }
  return problems;
}

/** The initial publication of a template: its declared values (names declared without a value are absent). */
export function declaredPublication(t: LoadedTemplate): DataMap {
  const out: DataMap = {};
  for (const [name, decl] of Object.entries(t.manifest.shared_settings)) {
    if (decl.value !== undefined && decl.value !== null) setOwn(out, name, cloneData(decl.value));
  }
  return out;
}

/** A combined shared value as subscribers see it. */
export interface SharedValue {
  /** Undefined when nothing publishes it and the project does not set it. */
  readonly value: Data | undefined;
  /** The templates whose publication went into it, in applied order. */
  readonly publishers: readonly string[];
  /** Whether `pdk_template.shared_settings` set it. */
  readonly fromProject: boolean;
}

type BoardConfig = Pick<SyncConfig, 'sharedSettings' | 'positionOf' | 'positions'>;

/**
 * Collects publications as templates are resolved, and hands subscribers the combined values. Call
 * `publish` for each template (in dependency order) before asking for a name it publishes.
 */
export class SharedSettingsBoard {
  readonly problems: Problem[] = [];
  private readonly published = new Map<string, DataMap>();
  private readonly combined = new Map<string, SharedValue>();
  private readonly publishers: Map<string, LoadedTemplate[]>;
  private readonly validators = new Map<string, ReturnType<typeof compileSettingsSchema> | null>();
  /** Names whose combined value broke the publishers' schema (reported here). */
  private readonly invalid = new Set<string>();
  /** Names whose value could not be checked within the time limit of untrusted templates (reported here). */
  private readonly timedOut = new Set<string>();

  /**
   * `available` (the templates the sources offer, applied or not) is read only when a subscription has
   * no applied publisher, to tell an optional subscription from one nothing publishes.
   */
  constructor(
    private readonly applied: readonly LoadedTemplate[],
    private readonly config: BoardConfig,
    available: Iterable<LoadedTemplate> = applied,
    /** The limits untrusted publishers' schemas are checked under (else the environment's). */
    private readonly untrustedLimits?: SandboxLimits,
  ) {
    this.publishers = publishersByName(applied);
    this.problems.push(...checkPublisherSchemas(applied));
    this.checkProjectNames();
    this.problems.push(
      ...unpublishedSubscriptions(applied, this.publishers, available, config.sharedSettings),
    );
  }

  /**
   * Records what `t` publishes (final, after its `after_project_settings` hook). Names it did not declare
   * are errors and are dropped; null means "not published".
   */
  publish(t: LoadedTemplate, values: DataMap, by = 'its hooks'): void {
    const kept: DataMap = {};
    for (const [name, value] of Object.entries(values)) {
      if (!Object.hasOwn(t.manifest.shared_settings, name)) {
        this.problems.push(
          problem(
            'error',
            'SHARED_UNDECLARED',
            `template '${t.name}' publishes '${name}', which it does not declare (set by ${by})`,
            t.manifestPositions.positionOf('/shared_settings'),
            `declare it under "shared_settings" in ${t.name}/template.json`,
          ),
        );
      } else if (value !== null) {
        setOwn(kept, name, cloneData(value));
      }
    }
    this.published.set(t.name, kept);
  }

  /** The schema the publishers of `name` declare, if any applied template publishes it. */
  schemaOf(name: string): Readonly<Record<string, unknown>> | undefined {
    // A schema that ran out of time here is not checked again by each subscriber.
    if (this.timedOut.has(name)) return undefined;
    return this.publishers.get(name)?.[0]?.manifest.shared_settings[name]?.schema;
  }

  /** Whether the schema of shared setting `name` comes from a trusted source (`schemaOf`'s publisher). */
  schemaTrusted(name: string): boolean {
    return this.publishers.get(name)?.[0]?.source.trusted ?? true;
  }

  /**
   * A subscribed value as the publishers gave it, for checking it against the subscriber's schema: where
   * the first publisher wrote it, and whether it broke the publishers' schema (then reported already).
   */
  publishedSetting(name: string): PublishedSetting | undefined {
    const shared = this.valueOf(name);
    const publisher = this.publishers.get(name)?.find((t) => t.name === shared.publishers[0]);
    if (!publisher) return undefined;
    const written = publisher.manifest.shared_settings[name]?.value ?? null;
    const at = jsonPointer(['shared_settings', name, 'value']);
    return {
      reported: this.invalid.has(name),
      positionOf: (pointer) =>
        publisher.manifestPositions.positionOf(at + writtenPointer(shared.value ?? null, written, pointer)),
    };
  }

  /**
   * Whether the combined value of `name` broke its publishers' schema (reported at the publisher or the
   * project's override): a subscriber given it renders nothing, rather than fail again on the same value.
   */
  refused(name: string): boolean {
    this.valueOf(name);
    return this.invalid.has(name);
  }

  /** What the template named `template` published, as recorded. */
  publicationOf(template: string): DataMap | undefined {
    return this.published.get(template);
  }

  /** The combined value of shared setting `name`, with the project's override merged on top. */
  valueOf(name: string): SharedValue {
    let v = this.combined.get(name);
    if (!v) {
      v = this.combine(name);
      this.combined.set(name, v);
    }
    return v;
  }

  private combine(name: string): SharedValue {
    let value: Data | undefined;
    const names: string[] = [];
    let first: LoadedTemplate | undefined;
    for (const t of this.publishers.get(name) ?? []) {
      const pub = this.published.get(t.name);
      if (!pub || !Object.hasOwn(pub, name)) continue;
      const next = pub[name]!;
      names.push(t.name);
      if (value === undefined || !first) {
        value = cloneData(next);
        first = t;
        continue;
      }
      const disagreements: string[] = [];
      value = combineTwo(value, next, '', disagreements);
      if (disagreements.length > 0) {
        this.problems.push(
          problem(
            'warning',
            'SHARED_PUBLISHERS_DISAGREE',
            `templates '${first.name}' and '${t.name}' publish different values for '${name}'` +
              `${disagreements[0] ? ` at ${disagreements[0]}` : ''}; '${first.name}' (applied first) wins`,
            t.manifestPositions.positionOf(jsonPointer(['shared_settings', name, 'value'])),
          ),
        );
      }
    }
    const fromProject = Object.hasOwn(this.config.sharedSettings, name);
    if (fromProject) {
      const pointer = jsonPointer(['pdk_template', 'shared_settings', name]);
      const merged = mergeData(value, this.config.sharedSettings[name]!, pointer);
      for (const w of merged.warnings) {
        this.problems.push(problem('warning', w.code, w.message, this.config.positionOf(w.pointer)));
      }
      value = merged.value;
    }
    if (value !== undefined) this.validate(name, value, fromProject);
    return { value, publishers: names, fromProject };
  }

  /** Checks the final value against the schema its publishers declare. */
  private validate(name: string, value: Data, fromProject: boolean): void {
    const publisher = this.publishers.get(name)?.[0];
    const schema = publisher?.manifest.shared_settings[name]?.schema;
    if (!publisher || !schema) return;
    let validator = this.validators.get(name);
    if (validator === undefined) {
      try {
        validator = compileSettingsSchema(schema, publisher.manifestFile);
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        this.problems.push(...e.problems);
        validator = null;
      }
      this.validators.set(name, validator);
    }
    if (!validator) return;
    // An untrusted publisher's schema is checked under its limits, as its own settings' schema is.
    let found: SchemaViolation[];
    try {
      found = validator.validate(
        value,
        undefined,
        schemaLimits(publisher.source.trusted, this.untrustedLimits),
      );
    } catch (e) {
      if (!(e instanceof SchemaLimitError)) throw e;
      const at = jsonPointer(['shared_settings', name, 'schema']);
      this.problems.push(
        schemaLimitProblem(publisher.name, e, publisher.manifestFile, publisher.manifestPositions, at),
      );
      this.invalid.add(name);
      this.timedOut.add(name);
      return;
    }
    for (const v of found) {
      this.invalid.add(name);
      const position = fromProject
        ? this.config.positionOf(
            jsonPointer(['pdk_template', 'shared_settings', name]) +
              writtenPointer(value, this.config.sharedSettings[name]!, v.pointer),
          )
        : publisher.manifestPositions.positionOf(jsonPointer(['shared_settings', name, 'value']) + v.pointer);
      // The schema is named with where it is written: the value may be the project's, the rule the publisher's.
      const schemaAt = publisher.manifestPositions.positionOf(
        jsonPointer(['shared_settings', name, 'schema']),
      );
      this.problems.push(
        problem(
          'error',
          'SETTINGS_INVALID',
          `shared setting '${name}${
            v.pointer
              ? parsePointer(v.pointer)
                  .map((x) => `[${x}]`)
                  .join('')
              : ''
          }' ${v.message}, by the schema template '${publisher.name}' publishes it with`,
          position,
          `fix the value here (or the schema, ${publisher.name}/template.json:${schemaAt.line}:${schemaAt.column}): until it fits, the templates subscribing to '${name}' render nothing`,
        ),
      );
    }
  }

  /** Project overrides for names no applied template publishes or subscribes to are probably typos. */
  private checkProjectNames(): void {
    const known = new Set<string>(this.publishers.keys());
    for (const t of this.applied) for (const s of t.manifest.setting_subscriptions) known.add(s);
    for (const name of Object.keys(this.config.sharedSettings)) {
      if (known.has(name)) continue;
      this.problems.push(
        problem(
          'warning',
          'SHARED_UNKNOWN',
          `shared setting '${name}' is neither published nor subscribed to by an applied template`,
          this.config.positions.keyPositionOf(jsonPointer(['pdk_template', 'shared_settings', name])),
          didYouMeanHint(name, known),
        ),
      );
    }
  }
}

/**
 * A subscription nothing can give a value (no template of the sources publishes it, the project does not
 * set it) is a warning at the subscription, with a did-you-mean over the published names: the subscriber
 * always gets null, so it is probably a typo.
 */
export function unpublishedSubscriptions(
  applied: readonly LoadedTemplate[],
  publishers: ReadonlyMap<string, readonly LoadedTemplate[]>,
  available: Iterable<LoadedTemplate>,
  /** The project's `pdk_template.shared_settings`: a name it sets has a value without a publisher. */
  fromProject: object,
): Problem[] {
  const problems: Problem[] = [];
  let offered: Map<string, LoadedTemplate[]> | undefined;
  for (const t of applied) {
    t.manifest.setting_subscriptions.forEach((name, i) => {
      if (publishers.has(name) || Object.hasOwn(fromProject, name)) return;
      // Read lazily: the available templates load on first read, and this is the rare case.
      offered ??= publishersByName([...available]);
      // A publisher the project does not apply makes an optional subscription (github_actions and
      // litmus): warning about it would warn every project that does without it. `show` names it.
      if (offered.has(name)) return;
      problems.push(
        problem(
          'warning',
          'SHARED_NOT_PUBLISHED',
          `template '${t.name}' subscribes to '${name}', which no template of the sources publishes`,
          t.manifestPositions.positionOf(jsonPointer(['setting_subscriptions', i])),
          didYouMeanHint(name, offered.keys()) ??
            `publish it from a template (under "shared_settings" in its template.json), or remove the subscription`,
        ),
      );
    });
  }
  return problems;
}

/**
 * Combines a later publisher's value into an earlier one: arrays concatenate without duplicates, hashes
 * deep-merge with the earlier value winning, anything else keeps the earlier value. Disagreements (the
 * earlier value won over a different one) are collected as JSON pointers.
 */
export function combineTwo(earlier: Data, later: Data, pointer: string, disagreements: string[]): Data {
  if (Array.isArray(earlier) && Array.isArray(later)) {
    const out = earlier.map(cloneData);
    for (const item of later) if (!out.some((x) => dataEquals(x, item))) out.push(cloneData(item));
    return out;
  }
  if (isDataMap(earlier) && isDataMap(later)) {
    const out: DataMap = {};
    for (const [k, v] of Object.entries(earlier)) {
      setOwn(
        out,
        k,
        Object.hasOwn(later, k) ? combineTwo(v, later[k]!, `${pointer}/${k}`, disagreements) : cloneData(v),
      );
    }
    for (const [k, v] of Object.entries(later)) if (!Object.hasOwn(earlier, k)) setOwn(out, k, cloneData(v));
    return out;
  }
  if (!dataEquals(earlier, later)) disagreements.push(pointer);
  return cloneData(earlier);
}
