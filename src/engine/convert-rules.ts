/**
 * What the templates' V1 tables tell `convert` (engine/convert.ts), apart from which file goes where:
 * settings moved or dropped (`v1_settings`), settings no template takes (reported with a did-you-mean),
 * what PDK did with files a `.sync.yml` does not mention (`v1_default`), and settings that make a
 * converted project render what the V1 templates rendered (`v1_convert_settings`).
 */
import { type Document, isMap, isScalar, isSeq, type Node, Pair, Scalar, YAMLMap } from 'yaml';
import { didYouMean } from '../shared/did-you-mean.js';
import { problem } from './errors.js';
import type { DataMap, PositionLookup, TemplateManifest, V1SettingRule } from './model.js';
import type { Problem } from './render-plan.js';
import { judgesUnknownKeys } from './settings.js';
import { jsonPointer } from './yaml-data.js';

/** The per-file keys of PDK's V1 `.sync.yml` that are not settings. */
export const V1_FLAGS = ['unmanaged', 'delete', 'manage_execute_permissions'] as const;

/** One template as `convert` sees it. */
export interface V1Template {
  readonly name: string;
  readonly alwaysApply: boolean;
  readonly files: readonly string[];
  readonly rules: Readonly<Record<string, V1SettingRule>>;
  readonly default: TemplateManifest['v1_default'];
  readonly convertSettings: DataMap;
  /**
   * Setting names the template takes: its schema's properties, defaults and subscriptions; undefined when
   * its schema does not close the list (no schema, or `additionalProperties` not false): any name goes.
   */
  readonly accepted: ReadonlySet<string> | undefined;
}

export function v1Template(
  manifest: TemplateManifest,
  schema: Readonly<Record<string, unknown>> | undefined,
): V1Template {
  // As `validate` judges unknown settings (settings.ts): a schema that decides about unknown keys itself
  // closes the list only with `additionalProperties: false`; otherwise its properties, the defaults and
  // the subscriptions are the list (without a schema, the defaults and subscriptions).
  const properties = schema?.properties;
  const closed = schema === undefined || !judgesUnknownKeys(schema) || schema.additionalProperties === false;
  return {
    name: manifest.name,
    alwaysApply: manifest.always_apply,
    files: manifest.v1_files,
    rules: manifest.v1_settings,
    default: manifest.v1_default,
    convertSettings: manifest.v1_convert_settings,
    accepted: closed
      ? new Set([
          ...(properties && typeof properties === 'object' ? Object.keys(properties) : []),
          ...Object.keys(manifest.default_settings),
          ...manifest.setting_subscriptions,
        ])
      : undefined,
  };
}

export interface Moved {
  readonly from: string;
  readonly pointer: string;
  readonly template: string;
  readonly setting: string;
  readonly value: Node;
}

/**
 * Takes out of a V1 file's settings those its template's `v1_settings` rules name: dropped ones are
 * listed, moved ones collected (a suffix stripped from each string of a list when the rule says so).
 */
export function takeRules(
  file: string,
  settings: YAMLMap,
  rules: Readonly<Record<string, V1SettingRule>>,
  dropped: string[],
  moved: Moved[],
): void {
  settings.items = (settings.items as Pair[]).filter((item) => {
    const key = isScalar(item.key) ? String(item.key.value) : undefined;
    if (key === undefined || !Object.hasOwn(rules, key)) return true;
    const rule = rules[key]!;
    if (rule === null) {
      dropped.push(`${file}: ${key}`);
      return false;
    }
    const value = item.value as Node;
    if (rule.stripSuffix !== undefined && isSeq(value)) {
      for (const entry of value.items) {
        if (isScalar(entry) && typeof entry.value === 'string' && entry.value.endsWith(rule.stripSuffix)) {
          entry.value = entry.value.slice(0, -rule.stripSuffix.length);
        }
      }
    }
    const [template, setting] = rule.to.split('.') as [string, string];
    moved.push({ from: `${file}: ${key}`, pointer: jsonPointer([file, key]), template, setting, value });
    return false;
  });
}

/**
 * Takes out of a V1 file's settings those its template does not take: PDK ignores a key its ERB does not
 * read (a misspelt `unamanged`, a rubocop `profiles` under `Rakefile`), so dropping it keeps what PDK
 * did; each is reported where it is, with the likeliest meant key. Returns the source text of each, to
 * keep as a comment.
 */
export function takeUnknownSettings(
  file: string,
  settings: YAMLMap,
  template: V1Template,
  text: string,
  problems: Problem[],
  positions: PositionLookup,
): string[] {
  const kept: string[] = [];
  const accepted = template.accepted;
  if (accepted === undefined) return kept;
  settings.items = (settings.items as Pair[]).filter((item) => {
    const key = isScalar(item.key) ? String(item.key.value) : undefined;
    if (key === undefined || accepted.has(key)) return true;
    const flag = didYouMean(key, V1_FLAGS);
    const setting = flag === undefined ? didYouMean(key, accepted) : undefined;
    const meant = flag ?? setting;
    problems.push(
      problem(
        'warning',
        'CONVERT_UNKNOWN_SETTING',
        flag !== undefined
          ? `'${file}: ${key}' is no V1 key (PDK ignored it, so it had no effect): did you mean '${flag}'?`
          : `'${file}: ${key}' is no setting of the template '${template.name}' (pdk-templates did not read it either)${meant ? `: did you mean '${meant}'?` : ''}`,
        positions.keyPositionOf(jsonPointer([file, key])),
        meant !== undefined
          ? `kept as a comment at the end of .sync.yml; write it as '${meant}' under '${flag !== undefined ? file : template.name}' if that was meant`
          : 'kept as a comment at the end of .sync.yml; delete it, or move it where it belongs',
      ),
    );
    const start = (item.key as Node).range?.[0] ?? 0;
    const end = (item.value as Node | null)?.range?.[1] ?? (item.key as Node).range?.[1] ?? start;
    kept.push(`${file}:\n  ${text.slice(start, end).replace(/\s+$/, '')}`);
    return false;
  });
  return kept;
}

/** How a V1 file key was left by the `.sync.yml`. */
export interface V1FileState {
  readonly unmanaged: boolean | undefined;
  readonly delete: boolean;
}

/**
 * Whether PDK rendered any file of the template, given what the `.sync.yml` said of each (absent: not
 * mentioned): 'managed' templates unless every file is unmanaged or deleted; 'unmanaged' ones when a
 * file says `unmanaged: false`; others when a mentioned file is neither unmanaged nor deleted.
 */
export function renderedByPdk(template: V1Template, states: ReadonlyMap<string, V1FileState>): boolean {
  return template.files.some((file) => {
    const state = states.get(file);
    if (state?.delete === true) return false;
    if (template.default === 'managed') return state?.unmanaged !== true;
    if (template.default === 'unmanaged') return state?.unmanaged === false;
    return state !== undefined && state.unmanaged !== true;
  });
}

/** Files of an applied 'unmanaged'-by-default template that PDK did not write: they stay unmanaged. */
export function unmanagedByDefault(template: V1Template, states: ReadonlyMap<string, V1FileState>): string[] {
  if (template.default !== 'unmanaged') return [];
  return template.files.filter((file) => {
    const state = states.get(file);
    return state === undefined || (state.unmanaged === undefined && !state.delete);
  });
}

/**
 * Moved settings into their template's section (made when the V1 file had none): lists are joined without
 * repeats; a setting already there otherwise keeps its value, with a warning.
 */
export function placeMoved(
  items: Pair[],
  moved: readonly Moved[],
  problems: Problem[],
  positions: PositionLookup,
): void {
  for (const m of moved) {
    const section = sectionOf(items, m.template);
    const existing = section.get(m.setting, true) as Node | undefined;
    if (existing === undefined) section.set(m.setting, m.value);
    else if (isSeq(existing) && isSeq(m.value)) {
      const have = new Set(existing.items.map((i) => (isScalar(i) ? String(i.value) : undefined)));
      for (const entry of m.value.items) {
        if (!isScalar(entry) || !have.has(String(entry.value))) existing.items.push(entry);
      }
    } else {
      problems.push(
        problem(
          'warning',
          'SYNC_SECTION',
          `${m.from} would move to ${m.template}.${m.setting}, which is set already; kept the value there`,
          positions.positionOf(m.pointer),
        ),
      );
    }
  }
}

/** `v1_convert_settings` of the applied templates, into their sections, under what the V1 file set. */
export function placeConvertSettings(doc: Document, items: Pair[], applied: readonly V1Template[]): string[] {
  const placed: string[] = [];
  for (const t of applied) {
    for (const [setting, value] of Object.entries(t.convertSettings)) {
      const section = sectionOf(items, t.name);
      if (section.has(setting)) continue;
      section.set(setting, doc.createNode(value));
      placed.push(`${t.name}.${setting}`);
    }
  }
  return placed;
}

/** The template's section among the top-level pairs, made (empty, at the end) when there is none. */
function sectionOf(items: Pair[], template: string): YAMLMap {
  let pair = items.find((p) => isScalar(p.key) && p.key.value === template);
  if (!pair || !isMap(pair.value)) {
    if (pair) items.splice(items.indexOf(pair), 1);
    pair = new Pair(new Scalar(template), new YAMLMap());
    items.push(pair);
  }
  return pair.value as YAMLMap;
}
