/**
 * What the templates' V1 tables tell `convert` (engine/convert.ts), apart from which file goes where:
 * settings moved or dropped (`v1_settings`), settings no template takes (reported with a did-you-mean),
 * what PDK did with files a `.sync.yml` does not mention (`v1_default`), and settings that make a
 * converted project render what the V1 templates rendered (`v1_convert_settings`).
 */
import { type Document, isMap, isScalar, isSeq, type Node, Pair, Scalar, YAMLMap } from 'yaml';
import { didYouMean } from '../shared/did-you-mean.js';
import { problem } from './errors.js';
import type { DataMap, Position, PositionLookup, TemplateManifest, V1SettingRule } from './model.js';
import type { Problem } from './render-plan.js';
import { judgesUnknownKeys, KNOCKOUT } from './settings.js';
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
  /** `v1_reads`: the settings each V1 file read from its own section in PDK (files not listed: unknown). */
  readonly reads: Readonly<Record<string, readonly string[]>>;
  /** `v1_defaults`: the settings config_defaults.yml gives each V1 file, over `common`. */
  readonly defaults: Readonly<Record<string, readonly string[]>>;
  /**
   * Setting names the template takes: its schema's properties, defaults and subscriptions; undefined when
   * its schema does not close the list (no schema, or `additionalProperties` not false): any name goes.
   */
  readonly accepted: ReadonlySet<string> | undefined;
  /** Its schema's `properties` (none without a schema). */
  readonly properties: Readonly<Record<string, unknown>>;
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
    reads: manifest.v1_reads,
    defaults: manifest.v1_defaults ?? {},
    properties: properties && typeof properties === 'object' ? (properties as Record<string, unknown>) : {},
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
 * listed, moved ones collected in the order of the rules (PDK's Rakefile lists `default_disabled_lint_checks`
 * before `extra_disabled_lint_checks`, whatever order the file gives them), a suffix stripped from each
 * string of a list when the rule says so, and entries that stand for a boolean setting moved to it.
 */
export function takeRules(
  file: string,
  settings: YAMLMap,
  rules: Readonly<Record<string, V1SettingRule>>,
  dropped: string[],
  moved: Moved[],
): void {
  const order = Object.keys(rules);
  const taken: { rank: number; moved: Moved }[] = [];
  settings.items = (settings.items as Pair[]).filter((item) => {
    const key = isScalar(item.key) ? String(item.key.value) : undefined;
    if (key === undefined || !Object.hasOwn(rules, key)) return true;
    const rule = rules[key]!;
    if (rule === null) {
      dropped.push(`${file}: ${key}`);
      return false;
    }
    const rank = order.indexOf(key);
    const value = item.value as Node;
    if (rule.stripSuffix !== undefined && isSeq(value)) {
      for (const entry of value.items) {
        if (isScalar(entry) && typeof entry.value === 'string' && entry.value.endsWith(rule.stripSuffix)) {
          entry.value = entry.value.slice(0, -rule.stripSuffix.length);
        }
      }
    }
    const booleans = rule.booleanEntries ?? {};
    if (isSeq(value) && Object.keys(booleans).length > 0) {
      const before = value.items.length;
      value.items = value.items.filter((entry, i) => {
        const text = isScalar(entry) && typeof entry.value === 'string' ? entry.value : undefined;
        const name = text?.startsWith(KNOCKOUT) ? text.slice(KNOCKOUT.length) : text;
        if (name === undefined || !Object.hasOwn(booleans, name)) return true;
        const [template, setting] = booleans[name]!.split('.') as [string, string];
        const flag = new Scalar(!text!.startsWith(KNOCKOUT));
        const pointer = jsonPointer([file, key, String(i)]);
        taken.push({
          rank,
          moved: { from: `${file}: ${key}: ${text}`, pointer, template, setting, value: flag },
        });
        return false;
      });
      // A list left empty by that would add nothing to its setting.
      if (before > 0 && value.items.length === 0) return false;
    }
    const [template, setting] = rule.to.split('.') as [string, string];
    const pointer = jsonPointer([file, key]);
    taken.push({ rank, moved: { from: `${file}: ${key}`, pointer, template, setting, value } });
    return false;
  });
  taken.sort((a, b) => a.rank - b.rank);
  moved.push(...taken.map((t) => t.moved));
}

/**
 * Takes out of a V1 file's settings those that have no V2 place: PDK ignores a key its ERB does not read
 * (a misspelt `unamanged`, a rubocop `profiles` under `Rakefile`, anything under `.puppet-lint.rc`, whose
 * ERB reads the Rakefile's settings), so dropping it keeps what PDK did. Which keys a file's ERB read is
 * the template's `v1_reads`; for a file it does not list, the settings the template takes. Each is
 * reported where it is, with the likeliest meant key, or the file that does read it. Returns the source
 * text of each, to keep as a comment.
 */
export function takeUnknownSettings(
  file: string,
  settings: YAMLMap,
  template: V1Template,
  context: UnknownContext,
): string[] {
  const { text, problems, positions } = context;
  const kept: string[] = [];
  const reads = Object.hasOwn(template.reads, file) ? template.reads[file] : undefined;
  const accepted = template.accepted;
  if (reads === undefined && accepted === undefined) return kept;
  settings.items = (settings.items as Pair[]).filter((item) => {
    const key = isScalar(item.key) ? String(item.key.value) : undefined;
    if (key === undefined) return true;
    const read = reads === undefined || reads.includes(key);
    const takes = accepted === undefined || accepted.has(key);
    if (read && takes) return true;
    const at = positions.keyPositionOf(jsonPointer([file, key]));
    const flag = didYouMean(key, V1_FLAGS);
    if (flag !== undefined) {
      problems.push(
        problem(
          'warning',
          'CONVERT_UNKNOWN_SETTING',
          `'${file}: ${key}' is no V1 key (PDK ignored it, so it had no effect): did you mean '${flag}'?`,
          at,
          `kept as a comment at the end of .sync.yml; write it as '${flag}' under '${file}' if that was meant`,
        ),
      );
    } else if (!read) {
      problems.push(unreadSetting(file, key, reads!, template.rules, context.readersOf(key), at));
    } else if (reads !== undefined) {
      // pdk-templates read it, and the template has no setting for it: what it did is lost.
      problems.push(
        problem(
          'warning',
          'CONVERT_UNKNOWN_SETTING',
          `'${file}: ${key}' is read by the V1 template of '${file}', but the template '${template.name}' has no setting for it: what it did in PDK is lost`,
          at,
          `kept as a comment at the end of .sync.yml; ask the maintainers of '${template.name}' for an equivalent setting`,
        ),
      );
    } else {
      const meant = didYouMean(key, accepted!);
      problems.push(
        problem(
          'warning',
          'CONVERT_UNKNOWN_SETTING',
          `'${file}: ${key}' is no setting of the template '${template.name}' (pdk-templates did not read it either)${meant ? `: did you mean '${meant}'?` : ''}`,
          at,
          meant !== undefined
            ? `kept as a comment at the end of .sync.yml; write it as '${meant}' under '${template.name}' if that was meant`
            : 'kept as a comment at the end of .sync.yml; delete it, or move it where it belongs',
        ),
      );
    }
    kept.push(keptText(file, item, text));
    return false;
  });
  return kept;
}

/** What `takeUnknownSettings` needs besides the file: the V1 text, where problems go, the V1 readers. */
export interface UnknownContext {
  readonly text: string;
  readonly problems: Problem[];
  readonly positions: PositionLookup;
  /** The V1 files whose template reads `key` from their own section (by `v1_reads` or `v1_settings`). */
  readonly readersOf: (key: string) => readonly string[];
}

/**
 * A setting a V1 file's ERB does not read: no effect in PDK, with the file that reads it, if one does. A
 * misspelling is matched against what the ERB reads, and the settings a rule moves (the ERB reads them too:
 * `linter_fail_on_warning` is `linter_fail_on_warnings`, which V2 calls `puppet_lint.fail_on_warnings`).
 */
function unreadSetting(
  file: string,
  key: string,
  reads: readonly string[],
  rules: Readonly<Record<string, V1SettingRule>>,
  readers: readonly string[],
  at: Position,
): Problem {
  const movedKeys = Object.keys(rules).filter((k) => rules[k] !== null);
  const meant = readers.length === 0 ? didYouMean(key, [...reads, ...movedKeys]) : undefined;
  const movedTo = meant !== undefined ? rules[meant]?.to : undefined;
  const elsewhere =
    readers.length > 0 ? ` (it is read under ${readers.map((r) => `'${r}'`).join(', ')})` : '';
  return problem(
    'warning',
    'CONVERT_NO_EFFECT',
    `'${file}: ${key}' had no effect in PDK: the V1 template of '${file}' does not read it${elsewhere}${meant ? `: did you mean '${meant}'?` : ''}`,
    at,
    readers.length > 0
      ? `kept as a comment at the end of .sync.yml; if it was meant, move it under '${readers[0]}' and run \`pantograph convert\` on the V1 file again (this changes what is rendered)`
      : movedTo !== undefined
        ? `kept as a comment at the end of .sync.yml; '${meant}' is '${movedTo}' in V2: set that if it was meant (this changes what is rendered)`
        : meant !== undefined
          ? `kept as a comment at the end of .sync.yml; write it as '${meant}' if that was meant`
          : 'kept as a comment at the end of .sync.yml; delete it',
  );
}

/** What `commonSettings` needs to know of the conversion besides the V1 text. */
export interface CommonContext extends UnknownContext {
  /** Whether every V1 file of the sources says what it reads (then a key no file reads had no effect). */
  readonly known: boolean;
  /** The template that replaces a V1 file. */
  readonly templateOf: (file: string) => V1Template | undefined;
  /** Whether PDK wrote the file (its template applied, the file neither unmanaged nor deleted). */
  readonly written: (file: string) => boolean;
  /** Whether the V1 file's own key in `.sync.yml` sets `key` (it wins over `common`). */
  readonly fileSets: (file: string, key: string) => boolean;
}

/**
 * The keys of `common`, which PDK merged under each file's own settings (the file's key, from
 * config_defaults.yml and `.sync.yml`, wins). A key that reached no file PDK wrote had no effect
 * (`CONVERT_NO_EFFECT`, with why); one that did, in files of templates that take it under that name,
 * moves under each such template (PDK's output kept); any other is said at its place. Returns the
 * problems, the moves and the keys not moved (kept as a comment).
 */
export function commonSettings(
  common: YAMLMap,
  context: CommonContext,
): { problems: Problem[]; moved: Moved[]; kept: Pair[] } {
  const problems: Problem[] = [];
  const moved: Moved[] = [];
  const kept: Pair[] = [];
  for (const item of common.items as Pair[]) {
    const key = isScalar(item.key) ? String(item.key.value) : String(item.key);
    const pointer = jsonPointer(['common', key]);
    const at = context.positions.keyPositionOf(pointer);
    const readers = context.readersOf(key);
    if (readers.length === 0) {
      kept.push(item);
      problems.push(
        context.known
          ? problem(
              'warning',
              'CONVERT_NO_EFFECT',
              `'common: ${key}' had no effect in PDK: no V1 template reads it`,
              at,
              'kept as a comment at the end of .sync.yml; delete it',
            )
          : problem(
              'warning',
              'CONVERT_UNKNOWN_FILE',
              `'common: ${key}' (a setting every V1 file sees): no template of this project's sources is known to read it`,
              at,
              'kept as a comment at the end of .sync.yml; delete it, or move it under a template by hand',
            ),
      );
      continue;
    }
    const byDefaults = readers.filter((f) => context.templateOf(f)?.defaults[f]?.includes(key) === true);
    const byKey = readers.filter((f) => !byDefaults.includes(f) && context.fileSets(f, key));
    const unwritten = readers.filter(
      (f) => !byDefaults.includes(f) && !byKey.includes(f) && !context.written(f),
    );
    const effective = readers.filter(
      (f) => !byDefaults.includes(f) && !byKey.includes(f) && !unwritten.includes(f),
    );
    const quoted = (files: readonly string[]) => files.map((f) => `'${f}'`).join(', ');
    if (effective.length === 0) {
      kept.push(item);
      const why = [
        byDefaults.length > 0 ? `config_defaults.yml sets it for ${quoted(byDefaults)}, over common` : '',
        byKey.length > 0 ? `the file's own key sets it for ${quoted(byKey)}` : '',
        unwritten.length > 0 ? `PDK did not write ${quoted(unwritten)}` : '',
      ].filter((w) => w !== '');
      problems.push(
        problem(
          'warning',
          'CONVERT_NO_EFFECT',
          `'common: ${key}' had no effect in PDK: ${why.join('; ')}`,
          at,
          'kept as a comment at the end of .sync.yml; delete it (moving it under a template would change what PDK wrote)',
        ),
      );
      continue;
    }
    // Where it took effect: under each template whose every reading file took it, by the same name.
    const templates = [...new Set(effective.map((f) => context.templateOf(f)!))];
    const movable = templates.every(
      (t) =>
        !Object.hasOwn(t.rules, key) &&
        (t.accepted === undefined || t.accepted.has(key)) &&
        readers.filter((f) => t.files.includes(f)).every((f) => effective.includes(f)),
    );
    if (movable) {
      templates.forEach((t, i) => {
        const value = i === 0 ? (item.value as Node) : ((item.value as Node).clone() as Node);
        moved.push({ from: `common: ${key}`, pointer, template: t.name, setting: key, value });
      });
      continue;
    }
    kept.push(item);
    problems.push(
      problem(
        'warning',
        'CONVERT_UNKNOWN_FILE',
        `'common: ${key}' took effect in PDK for ${quoted(effective)}, but V2 has no section every template sees and it cannot be moved as it is, so it is not converted`,
        at,
        `kept as a comment at the end of .sync.yml; write it under the file's key in the V1 file (${effective[0]}:) and run \`pantograph convert\` again, or set it under the template by hand`,
      ),
    );
  }
  return { problems, moved, kept };
}

/** A V1 setting as it was written, under its file key, to keep as a comment. */
export function keptText(file: string, item: Pair, text: string): string {
  const start = (item.key as Node).range?.[0] ?? 0;
  const end = (item.value as Node | null)?.range?.[1] ?? (item.key as Node).range?.[1] ?? start;
  return `${file}:\n  ${text.slice(start, end).replace(/\s+$/, '')}`;
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
  return template.files.some((file) => fileRenderedByPdk(template, file, states));
}

/** Whether PDK rendered one V1 file of the template (see `renderedByPdk`). */
export function fileRenderedByPdk(
  template: V1Template,
  file: string,
  states: ReadonlyMap<string, V1FileState>,
): boolean {
  const state = states.get(file);
  if (state?.delete === true) return false;
  if (template.default === 'managed') return state?.unmanaged !== true;
  if (template.default === 'unmanaged') return state?.unmanaged === false;
  return state !== undefined && state.unmanaged !== true;
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
 * repeats; a scalar moved there before is replaced (PDK's Rakefile reads its extra checks after its default
 * ones); a setting the file gave otherwise keeps its value, with a warning.
 */
export function placeMoved(
  items: Pair[],
  moved: readonly Moved[],
  problems: Problem[],
  positions: PositionLookup,
): void {
  const placed = new Set<Node>();
  for (const m of moved) {
    const section = sectionOf(items, m.template);
    const existing = section.get(m.setting, true) as Node | undefined;
    if (existing === undefined || (placed.has(existing) && isScalar(existing) && isScalar(m.value))) {
      section.set(m.setting, m.value);
      placed.add(m.value);
    } else if (isScalar(existing) && isScalar(m.value) && existing.value === m.value.value) continue;
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
