/**
 * `pantograph convert`: the one-time conversion of a PDK templates V1 `.sync.yml` into V2 (DESIGN 12).
 *
 * A V1 file is keyed by the files it configures (`Gemfile:`, `.gitignore:`, `spec/spec_helper.rb:`). Each
 * key goes to the template whose `template.json` lists it in `v1_files` (the first by name when several
 * do; searched in the project's sources, the default one for a V1 file): its settings move under the
 * template's name, several files of one template merging into one section. A per-file `unmanaged: true` or
 * `delete: true` becomes an entry of `pdk_template.unmanaged` or `delete`. A template is listed in
 * `templates` when one of its files is still managed and it is not always applied. Keys no template
 * replaces are kept as comments at the end, to be moved by hand.
 *
 * The edit works on the yaml Document, so comments, quoting and order stay as the user wrote them.
 * Nothing is written here but by `writeConversion`.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type Document,
  isMap,
  isScalar,
  isSeq,
  type Node,
  Pair,
  parseDocument,
  Scalar,
  YAMLMap,
  YAMLSeq,
} from 'yaml';
import { EngineError, problem } from './errors.js';
import type { Position, PositionLookup, SourceSpec, V1SettingRule } from './model.js';
import type { ProjectOptions } from './project.js';
import { parseSyncConfig, SYNC_FILE } from './project-config.js';
import type { Problem } from './render-plan.js';
import { loadTemplate } from './repository.js';
import { listTemplates, resolveSources } from './sources/index.js';
import { jsonPointer, parseYamlData } from './yaml-data.js';

export interface ConvertedTemplate {
  readonly name: string;
  /** The V1 keys whose settings moved under it, in file order. */
  readonly files: readonly string[];
  /** Listed in `pdk_template.templates` (managed, and not always applied). */
  readonly listed: boolean;
}

export interface Conversion {
  /** Absolute path of `.sync.yml`. */
  readonly file: string;
  readonly before: string;
  /** The V2 text; undefined when the file is already V2 (nothing to do). */
  readonly after: string | undefined;
  readonly templates: readonly ConvertedTemplate[];
  readonly unmanaged: readonly string[];
  readonly delete: readonly string[];
  /** Always-applied templates excluded (`---name`) because the V1 file deletes all their files. */
  readonly excluded: readonly string[];
  /** V1 keys no template replaces (kept as comments). */
  readonly unconverted: readonly string[];
  /** V1 settings with no V2 equivalent, dropped (`file: setting`), by the templates' `v1_settings`. */
  readonly dropped: readonly string[];
  /** V1 settings moved to another name (`file: setting` -> `template.setting`). */
  readonly moved: readonly { readonly from: string; readonly to: string }[];
  /** Warnings, each at its place in the V1 file. */
  readonly problems: readonly Problem[];
}

export interface ConvertOptions extends Pick<ProjectOptions, 'offline' | 'trust' | 'env' | 'gitBinary'> {
  /** Template sources searched before `default`, written into `template_sources` (`--source`). */
  readonly sources?: readonly SourceSpec[];
}

/** Converts `<root>/.sync.yml` in memory. Throws EngineError for unreadable or unparsable input. */
export async function convertSyncFile(root: string, options: ConvertOptions = {}): Promise<Conversion> {
  const dir = resolve(root);
  const file = join(dir, SYNC_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new EngineError('SYNC_NOT_FOUND', `no ${SYNC_FILE} in ${dir}`, {
        hint: 'there is nothing to convert; `pantograph init` creates a V2 project',
      });
    }
    throw new EngineError('SYNC_READ', `cannot read ${file}: ${(e as Error).message}`);
  }
  const original = text;
  const duplicates = dropDuplicateKeys(text, file);
  text = duplicates.text;
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
  const positions = parsed.positions;
  if (parsed.data === undefined) {
    const first = parsed.problems.find((p) => p.severity === 'error');
    throw new EngineError(
      'SYNC_YAML',
      `${SYNC_FILE} is not valid YAML: ${first?.message ?? 'syntax error'}`,
      {
        position: first?.line ? { file, line: first.line, column: first.column ?? 1 } : undefined,
        problems: parsed.problems.filter((p) => p.severity === 'error'),
      },
    );
  }
  const data = parsed.data;
  const isMapping = typeof data === 'object' && data !== null && !Array.isArray(data);
  if (data !== null && !isMapping) {
    throw new EngineError('SYNC_NOT_MAPPING', `${SYNC_FILE} must be a mapping of keys to values`, {
      position: positions.positionOf(''),
    });
  }
  const unchanged = {
    file,
    before: original,
    templates: [],
    unmanaged: [],
    delete: [],
    excluded: [],
    unconverted: [],
    dropped: [],
    moved: [],
  };
  if (isMapping && Object.hasOwn(data, 'pdk_template'))
    return { ...unchanged, after: undefined, problems: [] };

  const extraSources = options.sources ?? [];
  const specs: SourceSpec[] = [...extraSources, { type: 'default', location: 'default' }];
  const sources = await resolveSources(specs, {
    root: dir,
    ...(options.offline !== undefined ? { offline: options.offline } : {}),
    ...(options.trust !== undefined ? { trust: options.trust } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
  });
  // V1 key -> the templates that replace it, by name.
  const claims = new Map<string, string[]>();
  const alwaysApply = new Set<string>();
  // Templates whose V1 files PDK writes unless told not to, in listing order.
  const v1Always: string[] = [];
  const v1Files = new Map<string, readonly string[]>();
  const rules = new Map<string, Readonly<Record<string, V1SettingRule>>>();
  for (const location of listTemplates(sources).templates) {
    const t = loadTemplate(location).template;
    if (!t) continue;
    if (t.manifest.always_apply) alwaysApply.add(t.name);
    else if (t.manifest.v1_always && t.manifest.v1_files.length > 0 && !v1Always.includes(t.name))
      v1Always.push(t.name);
    v1Files.set(t.name, t.manifest.v1_files);
    rules.set(t.name, t.manifest.v1_settings);
    for (const key of t.manifest.v1_files) {
      claims.set(key, [...(claims.get(key) ?? []), t.name]);
    }
  }

  // A Document of yaml's own 1.1 schema: it prints booleans as written (`yes` stays `yes`).
  const doc: Document = parseDocument(text, { version: '1.1' });
  const top = isMap(doc.contents) ? (doc.contents as YAMLMap) : new YAMLMap();
  const header = leadingComment(top);
  const problems: Problem[] = [...duplicates.problems];
  const unmanaged: Scalar[] = [];
  const deleted: Scalar[] = [];
  const deletedKeys = new Map<string, string>();
  const unconverted: string[] = [];
  const unconvertedText: string[] = [];
  const groups = new Map<string, Group>();
  const order: (Pair | Group)[] = [];
  const dropped: string[] = [];
  const moved: Moved[] = [];

  for (const pair of top.items as Pair[]) {
    const keyNode = pair.key as Node | undefined;
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const pointer = jsonPointer([key ?? '']);
    if (key === undefined) {
      order.push(pair);
      continue;
    }
    const flags = takeFlags(pair.value);
    const listItems: Scalar[] = [];
    if (flags.unmanaged) listItems.push(new Scalar(key));
    if (flags.delete) listItems.push(new Scalar(key));
    if (flags.unmanaged) unmanaged.push(listItems[0]!);
    if (flags.delete) {
      deleted.push(listItems.at(-1)!);
      deletedKeys.set(key, pointer);
    }
    const value = pair.value as Node | null;
    const empty = value === null || (isScalar(value) && value.value === null);
    if (listItems.length > 0 && (empty || (isMap(value) && value.items.length === 0))) {
      // Nothing left of the section: its comment now describes the list entry.
      if (keyNode?.commentBefore) listItems[0]!.commentBefore = keyNode.commentBefore;
      continue;
    }
    const claim = claims.get(key);
    if (!claim || !(empty || isMap(value))) {
      if (claim) {
        problems.push(
          problem(
            'warning',
            'SYNC_SECTION',
            `the settings of '${key}' are not a mapping; kept as a comment`,
            positions.positionOf(pointer),
          ),
        );
      }
      unconverted.push(key);
      unconvertedText.push(pairText(text, pair));
      continue;
    }
    const [name, ...others] = claim as [string, ...string[]];
    if (others.length > 0) {
      problems.push(
        problem(
          'warning',
          'SYNC_SECTION',
          `'${key}' is replaced by several templates (${claim.join(', ')}); its settings go to '${name}'`,
          positions.keyPositionOf(pointer),
        ),
      );
    }
    if (isMap(value)) takeRules(key, value, rules.get(name) ?? {}, dropped, moved);
    let group = groups.get(name);
    if (!group) {
      group = { name, files: [], pairs: [], managed: false };
      groups.set(name, group);
      order.push(group);
    }
    group.files.push(key);
    group.pairs.push(pair);
    if (!flags.unmanaged && !flags.delete) group.managed = true;
  }

  // A template PDK applies to every module (`v1_always`) is listed unless the file said unmanaged/delete.
  const keys = new Set((top.items as Pair[]).map((p) => (isScalar(p.key) ? String(p.key.value) : '')));
  for (const name of v1Always) {
    const files = v1Files.get(name) ?? [];
    if (groups.has(name) || files.some((f) => keys.has(f) || claims.get(f)?.[0] !== name)) continue;
    groups.set(name, { name, files: [], pairs: [], managed: true });
  }
  const listed = [...groups.values()].filter((g) => g.managed && !alwaysApply.has(g.name));
  const excluded = deletions(deletedKeys, claims, v1Files, alwaysApply, groups, problems, positions);
  const pdk = new YAMLMap();
  pdk.items.push(new Pair(new Scalar('version'), new Scalar(2)));
  if (extraSources.length > 0) {
    const list = new YAMLSeq();
    for (const spec of extraSources) {
      const map = new YAMLMap();
      map.items.push(new Pair(new Scalar('type'), new Scalar(spec.type)));
      map.items.push(new Pair(new Scalar('location'), new Scalar(spec.location)));
      list.items.push(map);
    }
    list.items.push(new Scalar('default'));
    pdk.items.push(new Pair(new Scalar('template_sources'), list));
  }
  const names = [...listed.map((g) => g.name), ...excluded.map((n) => `---${n}`)];
  if (names.length > 0)
    pdk.items.push(new Pair(new Scalar('templates'), seq(names.map((n) => new Scalar(n)))));
  if (unmanaged.length > 0) pdk.items.push(new Pair(new Scalar('unmanaged'), seq(unmanaged)));
  if (deleted.length > 0) pdk.items.push(new Pair(new Scalar('delete'), seq(deleted)));
  const pdkKey = new Scalar('pdk_template');
  pdkKey.commentBefore = `${header ? `${header}\n\n` : ''} Converted from PDK templates V1 by \`pantograph convert\`.`;
  const items: Pair[] = [new Pair(pdkKey, pdk)];
  for (const entry of order) {
    items.push(
      entry instanceof Pair ? entry : groupPair(entry, text, positions.keyPositionOf.bind(positions)),
    );
  }
  placeMoved(items, moved, problems, positions);
  top.items = items;
  doc.contents = top;
  if (unconvertedText.length > 0) {
    const note = [
      " Not converted: no template of this project's sources replaces these V1 keys; move their settings by hand.",
      ...unconvertedText.flatMap((t) => t.split('\n')).map((l) => ` ${l}`),
    ].join('\n');
    doc.comment = doc.comment ? `${doc.comment}\n${note}` : note;
  }
  const after = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  parseSyncConfig(after, file, dir); // the result must load as V2; a failure here is a bug
  return {
    ...unchanged,
    after,
    templates: [...groups.values()].map((g) => ({
      name: g.name,
      files: g.files,
      listed: listed.includes(g),
    })),
    unmanaged: unmanaged.map((s) => String(s.value)),
    delete: deleted.map((s) => String(s.value)),
    excluded,
    unconverted,
    dropped,
    moved: moved.map((m) => ({ from: m.from, to: `${m.template}.${m.setting}` })),
    problems,
  };
}

interface Moved {
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
function takeRules(
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
 * Moved settings into their template's section (made when the V1 file had none): lists are joined without
 * repeats; a setting already there otherwise keeps its value, with a warning.
 */
function placeMoved(
  items: Pair[],
  moved: readonly Moved[],
  problems: Problem[],
  positions: PositionLookup,
): void {
  for (const m of moved) {
    let pair = items.find((p) => isScalar(p.key) && p.key.value === m.template);
    if (!pair || !isMap(pair.value)) {
      pair = new Pair(new Scalar(m.template), new YAMLMap());
      items.push(pair);
    }
    const section = pair.value as YAMLMap;
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

/**
 * A top-level key given twice: Ruby's YAML (and so PDK) takes the last one, where yaml refuses the file.
 * The earlier ones are blanked out of the text (their lines kept, so that every position still points at
 * the file) and each is reported where it is.
 */
function dropDuplicateKeys(text: string, file: string): { text: string; problems: Problem[] } {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return { text, problems: [] };
  const pairs = (doc.contents as YAMLMap).items as Pair[];
  const last = new Map<string, Pair>();
  for (const pair of pairs) if (isScalar(pair.key)) last.set(String(pair.key.value), pair);
  const problems: Problem[] = [];
  let out = text;
  for (const pair of pairs) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const winner = last.get(key)!;
    if (winner === pair) continue;
    const start = (pair.key as Node).range![0];
    const end = ((pair.value as Node | null)?.range ?? (pair.key as Node).range!)[2];
    const line = (offset: number) => text.slice(0, offset).split('\n').length;
    out = `${out.slice(0, start)}${out.slice(start, end).replace(/[^\n]/g, '')}${out.slice(end)}`;
    problems.push(
      problem(
        'warning',
        'SYNC_YAML',
        `'${key}' is given twice (lines ${line(start)} and ${line((winner.key as Node).range![0])}): as PDK reads the file, the last one wins, and this one is dropped`,
        { file, line: line(start), column: 1 },
        'merge the two into one if both were meant',
      ),
    );
  }
  return { text: out, problems };
}

/**
 * What V1 deletions mean in V2, where deleting a path a template writes is an error: an always-applied
 * template all of whose V1 files are deleted is excluded (`---name`); a template that would still write a
 * deleted file gets a warning.
 */
function deletions(
  deletedKeys: ReadonlyMap<string, string>,
  claims: ReadonlyMap<string, readonly string[]>,
  v1Files: ReadonlyMap<string, readonly string[]>,
  alwaysApply: ReadonlySet<string>,
  groups: ReadonlyMap<string, Group>,
  problems: Problem[],
  positions: PositionLookup,
): string[] {
  const excluded: string[] = [];
  for (const [key, pointer] of deletedKeys) {
    const name = claims.get(key)?.[0];
    if (name === undefined) continue;
    const allDeleted = (v1Files.get(name) ?? []).every((f) => deletedKeys.has(f));
    const applied = alwaysApply.has(name) || groups.get(name)?.managed === true;
    if (allDeleted && alwaysApply.has(name) && groups.get(name)?.managed !== true) {
      if (!excluded.includes(name)) excluded.push(name);
    } else if (applied) {
      problems.push(
        problem(
          'warning',
          'SYNC_SECTION',
          `'${key}' is deleted, but the template '${name}' writes it; V2 refuses to delete a path a template writes`,
          positions.keyPositionOf(pointer),
          `make it unmanaged instead, or exclude the template with '---${name}'`,
        ),
      );
    }
  }
  return excluded;
}

/** Writes the converted text in place, atomically, keeping the file's mode. */
export function writeConversion(conversion: Conversion): void {
  if (conversion.after === undefined) return;
  const tmp = `${conversion.file}.pantograph-tmp-${process.pid}`;
  writeFileSync(tmp, conversion.after, { mode: statSync(conversion.file).mode & 0o777 });
  renameSync(tmp, conversion.file);
}

interface Group {
  readonly name: string;
  readonly files: string[];
  readonly pairs: Pair[];
  /** One of its files is neither unmanaged nor deleted. */
  managed: boolean;
}

/**
 * Takes the comment above the first key, which now moves below `pdk_template`: its last paragraph (after
 * a blank line) stays with that key; the rest is the file's header, returned to stay on top.
 */
function leadingComment(top: YAMLMap): string | undefined {
  const firstKey = top.items[0]?.key as Node | undefined;
  const comment = top.commentBefore ?? firstKey?.commentBefore;
  if (!comment) return undefined;
  top.commentBefore = null;
  if (firstKey) firstKey.commentBefore = null;
  const split = comment.lastIndexOf('\n\n');
  if (split < 0 || !firstKey) return comment;
  firstKey.commentBefore = comment.slice(split + 2);
  return comment.slice(0, split);
}

/** Removes `unmanaged:` and `delete:` from a file's settings and says which were true. */
function takeFlags(value: unknown): { unmanaged: boolean; delete: boolean } {
  const flags = { unmanaged: false, delete: false };
  if (!isMap(value)) return flags;
  value.items = value.items.filter((p) => {
    const k = isScalar(p.key) ? p.key.value : undefined;
    if ((k !== 'unmanaged' && k !== 'delete') || !isScalar(p.value) || typeof p.value.value !== 'boolean') {
      return true;
    }
    flags[k] = p.value.value;
    return false;
  });
  return flags;
}

/** The template's section: one file's mapping as it was, or several merged (a key set twice is an error). */
function groupPair(group: Group, text: string, keyPosition: (pointer: string) => Position): Pair {
  const firstKey = group.pairs[0]!.key as Node;
  const key = new Scalar(group.name);
  const comments = group.pairs
    .map((p) => (p.key as Node).commentBefore)
    .filter((c) => c !== undefined && c !== null);
  if (comments.length > 0) key.commentBefore = comments.join('\n');
  if (firstKey.spaceBefore) key.spaceBefore = true;
  const maps = group.pairs.map((p) => p.value).filter((v): v is YAMLMap => isMap(v) && v.items.length > 0);
  if (maps.length === 0) return new Pair(key, new YAMLMap());
  if (maps.length === 1) return new Pair(key, maps[0]);
  const merged = new YAMLMap();
  const seen = new Map<string, string>();
  group.pairs.forEach((p) => {
    const file = String((p.key as Scalar).value);
    if (!isMap(p.value)) return;
    for (const item of p.value.items as Pair[]) {
      const name = isScalar(item.key)
        ? String(item.key.value)
        : text.slice(...((item.key as Node).range ?? [0, 0]));
      const earlier = seen.get(name);
      if (earlier !== undefined) {
        throw new EngineError(
          'CONVERT_CONFLICT',
          `'${file}' and '${earlier}' both set '${name}', and both move to the template '${group.name}'`,
          {
            position: keyPosition(jsonPointer([file, name])),
            hint: `keep '${name}' in one of them (or rename it), then run \`pantograph convert\` again`,
          },
        );
      }
      seen.set(name, file);
      merged.items.push(item);
    }
  });
  return new Pair(key, merged);
}

function seq(items: Scalar[]): YAMLSeq {
  const s = new YAMLSeq();
  s.items.push(...items);
  return s;
}

/** The original text of a top-level pair, from its key to the end of its value, trailing blanks dropped. */
function pairText(text: string, pair: Pair): string {
  const start = (pair.key as Node).range?.[0] ?? 0;
  const value = pair.value as Node | null;
  const end = value?.range?.[1] ?? (pair.key as Node).range?.[1] ?? start;
  return text.slice(start, end).replace(/\s+$/, '');
}
