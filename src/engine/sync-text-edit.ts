/**
 * Edits of `.sync.yml` text that keep everything else of the file byte for byte: its comments, their
 * spacing, the style of its lists, YAML tags (`!replace`), and the spelling of values it does not change
 * (`0755`, `yes`, `9007199254740993`). Used by `pantograph add template` and by the web interface (Add,
 * Remove, a template's settings), so that both keep the same things.
 *
 * The yaml Document gives the position of every node; an edit is a splice of the original text at those
 * positions, so nothing else of the file changes (re-printing the whole Document would respell `yes` as
 * `true`, `0755` as `493`, and reflow collections). Shapes the splices do not cover (a flow-style
 * `pdk_template`, an empty `templates:`) fall back to editing the Document and printing it. The settings
 * edit parses its result again and checks that it says exactly what was asked, else falls back too.
 */
import { chmodSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import {
  type Document,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  Scalar,
  stringify,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import type { SyncConfig, SyncData } from './model.js';
import type { OverrideResult } from './sync-edit.js';
import { parseYamlData, toJson } from './yaml-data.js';

export interface Splice {
  readonly at: number;
  readonly remove?: number;
  readonly insert: string;
}

export function applySplice(text: string, s: Splice): string {
  return text.slice(0, s.at) + s.insert + text.slice(s.at + (s.remove ?? 0));
}

/** A YAML 1.1 scalar for a string, quoted when plain would mean something else (`on`, `#x`, `1.0`). */
export function scalar(value: string): string {
  return stringify(value, { version: '1.1', lineWidth: 0 }).trimEnd();
}

/** A list entry's text, valid in a flow list and a block one (`---name` plain, not a block scalar). */
export function itemScalar(value: string): string {
  const flow = stringify([value], {
    version: '1.1',
    lineWidth: 0,
    flowCollectionPadding: false,
    collectionStyle: 'flow',
  }).trim();
  return flow.slice(1, -1);
}

export function pdkMap(doc: Document): YAMLMap | undefined {
  const node = doc.get('pdk_template', true);
  return isMap(node) && !node.flow ? node : undefined;
}

export function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => isScalar(p.key) && p.key.value === key) as Pair | undefined;
}

/** Offset just after the line holding `offset - 1` (the start of the next line), or the text's end. */
export function nextLineStart(text: string, end: number): number {
  if (end > 0 && text[end - 1] === '\n') return end;
  const nl = text.indexOf('\n', end);
  return nl < 0 ? text.length : nl + 1;
}

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n'; // keep a Windows file's line ends
}

/** Inserts whole lines at `at` (a line start, or the end of a text without a final newline). */
export function insertLines(text: string, at: number, lines: readonly string[]): string {
  const eol = eolOf(text);
  const needsBreak = at === text.length && at > 0 && text[at - 1] !== '\n';
  return applySplice(text, { at, insert: `${needsBreak ? eol : ''}${lines.join(eol)}${eol}` });
}

/** The `  - ` prefix of a block sequence item, when the item sits alone after it on its line. */
export function itemPrefix(text: string, item: Node): string | undefined {
  const start = item.range?.[0];
  if (start === undefined) return undefined;
  const prefix = text.slice(lineStart(text, start), start);
  return /^ *- +$/.test(prefix) ? prefix : undefined;
}

/** Indentation of the keys of a block mapping. */
export function keyIndent(text: string, map: YAMLMap): string | undefined {
  const key = map.items[0]?.key as Node | undefined;
  const start = key?.range?.[0];
  if (start === undefined) return undefined;
  const indent = text.slice(lineStart(text, start), start);
  return /^ *$/.test(indent) ? indent : undefined;
}

/** The line after the last pair of a block mapping. */
export function afterLastPair(text: string, map: YAMLMap): number | undefined {
  const last = map.items.at(-1);
  const node = (last?.value ?? last?.key) as Node | undefined;
  const end = node?.range?.[1];
  return end === undefined ? undefined : nextLineStart(text, end);
}

// ---------------------------------------------------------------------------------------------------
// Templates: add, remove

/** The text with template `name` applied: its `---name` made `name` in place, or `name` appended. */
export function addTemplateText(config: SyncConfig, name: string): string {
  if (config.templates.some((r) => r.name === name)) return config.text;
  const excluded = config.excluded.find((r) => r.name === name);
  return excluded ? replaceExclusion(config, excluded.pointer, name) : appendTemplate(config, name);
}

/**
 * The text with template `name` not applied: its entry removed from `templates` (the other entries and
 * their comments kept), or, for an always-applied template, excluded with `---name` (in place of `name`
 * when it is listed).
 */
export function removeTemplateText(config: SyncConfig, name: string, alwaysApply: boolean): string {
  const listed = config.templates.find((r) => r.name === name);
  if (alwaysApply) {
    if (config.excluded.some((r) => r.name === name)) return config.text;
    return listed ? replaceItem(config, listed.pointer, `---${name}`) : appendTemplate(config, `---${name}`);
  }
  if (!listed) return config.text;
  const index = Number(listed.pointer.split('/').at(-1));
  const seq = config.document.getIn(['pdk_template', 'templates'], true) as YAMLSeq | undefined;
  const items = (seq?.items ?? []) as Node[];
  const item = items[index];
  const { text } = config;
  if (seq && item?.range) {
    if (seq.flow) {
      const next = items[index + 1];
      const previous = items[index - 1];
      if (next?.range)
        return applySplice(text, { at: item.range[0], remove: next.range[0] - item.range[0], insert: '' });
      if (previous?.range) {
        return applySplice(text, {
          at: previous.range[1],
          remove: item.range[1] - previous.range[1],
          insert: '',
        });
      }
      return applySplice(text, { at: item.range[0], remove: item.range[1] - item.range[0], insert: '' });
    }
    if (items.length > 1 && itemPrefix(text, item) !== undefined) {
      const from = lineStart(text, item.range[0]);
      return applySplice(text, { at: from, remove: nextLineStart(text, item.range[1]) - from, insert: '' });
    }
  }
  return viaDocument(config, (d) => {
    const node = d.getIn(['pdk_template', 'templates'], true);
    if (isSeq(node)) node.items.splice(index, 1);
    if (isSeq(node) && node.items.length === 0) node.flow = true;
  });
}

/** `templates: [..., name]` with the sequence's own style; `templates: [name]` when absent. */
export function appendTemplate(config: SyncConfig, name: string): string {
  const { text, document: doc } = config;
  const pdk = pdkMap(doc);
  const pair = pdk && pairOf(pdk, 'templates');
  const seq = pair?.value;
  if (pdk && !pair) {
    const indent = keyIndent(text, pdk);
    const at = afterLastPair(text, pdk);
    if (indent !== undefined && at !== undefined)
      return insertLines(text, at, [`${indent}templates: [${itemScalar(name)}]`]);
  }
  if (isSeq(seq) && seq.flow && seq.range) {
    const last = seq.items.at(-1) as Node | undefined;
    if (!last) {
      const open = text.indexOf('[', seq.range[0]);
      if (open >= 0 && open < seq.range[1])
        return applySplice(text, { at: open + 1, insert: itemScalar(name) });
    } else if (last.range) {
      return applySplice(text, { at: last.range[1], insert: `, ${itemScalar(name)}` });
    }
  }
  if (isSeq(seq) && !seq.flow) {
    const last = seq.items.at(-1) as Node | undefined;
    const prefix = last && itemPrefix(text, last);
    if (last?.range && prefix !== undefined) {
      return insertLines(text, nextLineStart(text, last.range[1]), [`${prefix}${itemScalar(name)}`]);
    }
  }
  return viaDocument(config, (d) => {
    const node = d.getIn(['pdk_template', 'templates'], true);
    if (isSeq(node)) node.add(d.createNode(name));
    else d.setIn(['pdk_template', 'templates'], d.createNode([name], { flow: true }));
  });
}

/** `---name` becomes `name` in place. */
export function replaceExclusion(config: SyncConfig, pointer: string, name: string): string {
  return replaceItem(config, pointer, name);
}

/** The entry of `templates` at `pointer` becomes `value` in place. */
function replaceItem(config: SyncConfig, pointer: string, value: string): string {
  const index = Number(pointer.split('/').at(-1));
  const seq = config.document.getIn(['pdk_template', 'templates'], true) as YAMLSeq | undefined;
  const item = seq?.items[index] as Node | undefined;
  if (item?.range && isScalar(item)) {
    return applySplice(config.text, {
      at: item.range[0],
      remove: item.range[1] - item.range[0],
      insert: itemScalar(value),
    });
  }
  return viaDocument(config, (d) => d.setIn(['pdk_template', 'templates', index], d.createNode(value)));
}

/** The fallback: edit a fresh parse of the Document and print it whole (comments kept). */
export function viaDocument(config: SyncConfig, edit: (doc: Document) => void): string {
  const doc = config.document.clone();
  edit(doc);
  return doc.toString({ lineWidth: 0 });
}

// ---------------------------------------------------------------------------------------------------
// A template's settings

/**
 * The text with a template's settings section made equal to `settings` (the web interface's form): a key
 * whose value is unchanged keeps its text and comments; a changed value is replaced where it is (its tag,
 * `!replace`, and the comment after it kept; a nested mapping edited key by key); keys not given removed.
 * Values compare as the page has them (`yes` is true, a big Integer a JSON number), so a value the page
 * sends back unchanged is never respelled.
 */
export function setSectionText(
  text: string,
  template: string,
  settings: Readonly<Record<string, unknown>>,
  fallback: (text: string, template: string, settings: Readonly<Record<string, unknown>>) => OverrideResult,
): OverrideResult {
  const parsed = parseYamlData(text, '.sync.yml', {
    version: '1.1',
    errorCode: 'SYNC_YAML',
    replaceTag: true,
  });
  if (parsed.data === undefined) return { text, changed: [] };
  const data = parsed.data;
  // A file that is no mapping (a list, a text) has no sections: left as it is, as one that does not
  // parse, for planning to say why (the Document's edit threw "Expected a valid index": a 500).
  if (data !== null && (typeof data !== 'object' || Array.isArray(data))) return { text, changed: [] };
  const current =
    data !== null && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, SyncData>)[template]
      : undefined;
  const root = parsed.document.contents;
  const spliced =
    isMap(root) && !root.flow ? spliceSection(text, root, template, current, settings) : undefined;
  if (spliced === undefined) return fallback(text, template, settings);
  if (spliced.changed.length === 0) return { text, changed: [] };
  // Checked: the new text must read as the settings asked, the rest unchanged; else the Document's edit.
  const check = parseYamlData(spliced.text, '.sync.yml', {
    version: '1.1',
    errorCode: 'SYNC_YAML',
    replaceTag: true,
  });
  const before = toJson(data) as Record<string, unknown>;
  const after = check.data === undefined ? undefined : (toJson(check.data) as Record<string, unknown>);
  // A section left with no setting is removed, key and all (the page's last "reset to default").
  const { [template]: _, ...others } = before;
  const expected = Object.keys(settings).length === 0 ? others : { ...before, [template]: settings };
  if (
    after === undefined ||
    !isDeepStrictEqual(after, expected) ||
    !isDeepStrictEqual(
      replaceTags(check.document),
      replaceTags(parsed.document).filter((p) => has(expected, p)),
    )
  ) {
    return fallback(text, template, settings);
  }
  return spliced;
}

/** The keys (as paths) whose value is tagged `!replace`, in document order. */
function replaceTags(doc: Document): string[][] {
  const paths: string[][] = [];
  const walk = (node: unknown, path: string[]) => {
    if (!isMap(node)) return;
    for (const pair of node.items as Pair[]) {
      const key = [...path, String(isScalar(pair.key) ? pair.key.value : pair.key)];
      if ((pair.value as Node | null)?.tag === '!replace') paths.push(key);
      walk(pair.value, key);
    }
  };
  walk(doc.contents, []);
  return paths;
}

/** Whether `data` still has a value at `path` (a removed key takes its tag with it). */
function has(data: unknown, path: readonly string[]): boolean {
  let at = data;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, key)) return false;
    at = (at as Record<string, unknown>)[key];
  }
  return true;
}

function spliceSection(
  text: string,
  root: YAMLMap,
  template: string,
  current: SyncData | undefined,
  settings: Readonly<Record<string, unknown>>,
): OverrideResult | undefined {
  const pair = pairOf(root, template);
  const value = pair?.value as Node | null | undefined;
  const eol = eolOf(text);
  if (!pair || value === null || value === undefined || (isScalar(value) && value.value === null)) {
    if (Object.keys(settings).length === 0) return { text, changed: [] };
    const indent = keyIndent(text, root) ?? '';
    const lines = [`${indent}${keyText(template)}:`, ...pairLines(`${indent}  `, settings)];
    if (!pair) return { text: insertLines(text, text.length, lines), changed: [template] };
    const key = pair.key as Node;
    if (!key.range) return undefined;
    const from = lineStart(text, key.range[0]);
    const to = nextLineStart(text, isScalar(value) && value.range ? value.range[1] : key.range[1]);
    return {
      text: applySplice(text, { at: from, remove: to - from, insert: `${lines.join(eol)}${eol}` }),
      changed: [template],
    };
  }
  if (!isMap(value) || value.flow) return undefined;
  if (Object.keys(settings).length === 0) {
    // No setting left: the section goes, with its key's line and the lines under it.
    const key = pair.key as Node;
    if (!key.range) return undefined;
    const from = lineStart(text, key.range[0]);
    return {
      text: applySplice(text, { at: from, remove: nextLineStart(text, valueEnd(value)) - from, insert: '' }),
      changed: [template],
    };
  }
  const own = (
    current !== null && typeof current === 'object' && !Array.isArray(current) ? toJson(current) : {}
  ) as Record<string, unknown>;
  const splices: Splice[] = [];
  const changed: string[] = [];
  if (!editMap(text, value, own, settings, template, splices, changed)) return undefined;
  // From the end, so that earlier offsets stay right.
  let out = text;
  for (const s of [...splices].sort((a, b) => b.at - a.at)) out = applySplice(out, s);
  return { text: out, changed };
}

/** Splices that make a block mapping's pairs equal `wanted`; false for a shape it does not cover. */
function editMap(
  text: string,
  map: YAMLMap,
  own: Record<string, unknown>,
  wanted: Readonly<Record<string, unknown>>,
  path: string,
  splices: Splice[],
  changed: string[],
): boolean {
  const indent = keyIndent(text, map);
  if (indent === undefined) return false;
  for (const item of map.items as Pair[]) {
    const key = item.key as Node;
    if (!isScalar(key) || !key.range) return false;
    const name = String(key.value);
    const node = item.value as Node | null;
    const end = node?.range?.[1] ?? key.range[1];
    if (!Object.hasOwn(wanted, name)) {
      const from = lineStart(text, key.range[0]);
      splices.push({ at: from, remove: nextLineStart(text, end) - from, insert: '' });
      changed.push(`${path}.${name}`);
      continue;
    }
    const next = wanted[name];
    if (isDeepStrictEqual(own[name], next)) continue;
    changed.push(`${path}.${name}`);
    const plainObject = (v: unknown): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && !Array.isArray(v);
    if (isMap(node) && !node.flow && plainObject(next)) {
      const inner = plainObject(own[name]) ? own[name] : {};
      if (!editMap(text, node, inner, next, `${path}.${name}`, splices, changed)) return false;
      continue;
    }
    if (!node?.range) {
      // `key:` with nothing after it: the value goes after the colon.
      splices.push(...valueAfterKey(text, key, next, indent));
      continue;
    }
    if (isSeq(node) && !node.flow && Array.isArray(next) && next.length > 0) {
      const items = seqSplices(text, node, own[name], next);
      if (items) {
        splices.push(...items);
        continue;
      }
    }
    const replacement = valueText(text, node, next);
    if (replacement === undefined) return false;
    splices.push({ at: node.range[0], remove: valueEnd(node) - node.range[0], insert: replacement });
  }
  const added = Object.keys(wanted).filter(
    (k) => !(map.items as Pair[]).some((p) => isScalar(p.key) && String(p.key.value) === k),
  );
  if (added.length > 0) {
    const at = afterLastPair(text, map);
    if (at === undefined) return false;
    const eol = eolOf(text);
    const needsBreak = at === text.length && at > 0 && text[at - 1] !== '\n';
    const lines = pairLines(indent, Object.fromEntries(added.map((k) => [k, wanted[k]])));
    splices.push({ at, insert: `${needsBreak ? eol : ''}${lines.join(eol)}${eol}` });
    for (const k of added) changed.push(`${path}.${k}`);
  }
  return true;
}

/** Where a value's own text ends: a block collection's range runs on over its last comment. */
function valueEnd(node: Node): number {
  if ((isSeq(node) || isMap(node)) && !node.flow) {
    const last = node.items.at(-1) as Node | Pair | undefined;
    const inner = (last && 'key' in last ? ((last.value ?? last.key) as Node | null) : last) ?? undefined;
    return inner?.range ? valueEnd(inner) : node.range![1];
  }
  return node.range![1];
}

/**
 * A block list of scalars, one per line, made `next` line by line: the entries kept keep their lines
 * (and comments), removed ones lose theirs, new ones get a line where they go.
 */
function seqSplices(
  text: string,
  seq: YAMLSeq,
  before: unknown,
  next: readonly unknown[],
): Splice[] | undefined {
  const items = seq.items as Node[];
  const old = Array.isArray(before) ? before : undefined;
  if (!old || old.length !== items.length || items.length === 0) return undefined;
  const prefixes = items.map((item) => (isScalar(item) ? itemPrefix(text, item) : undefined));
  if (prefixes.some((p) => p === undefined)) return undefined;
  if (next.some((v) => (v !== null && typeof v === 'object') || (typeof v === 'string' && /[\r\n]/.test(v))))
    return undefined;
  // The longest common subsequence of the old values and the new.
  const n = old.length;
  const m = next.length;
  const table = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      table[i]![j] = isDeepStrictEqual(old[i], next[j])
        ? table[i + 1]![j + 1]! + 1
        : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const eol = eolOf(text);
  const prefix = prefixes[0]!;
  const lineOf = (k: number) => lineStart(text, items[k]!.range![0]);
  const afterLine = (k: number) => nextLineStart(text, items[k]!.range![1]);
  const splices: Splice[] = [];
  let pending: string[] = [];
  const flush = (at: number) => {
    if (pending.length > 0)
      splices.push({ at, insert: `${pending.map((l) => `${prefix}${l}`).join(eol)}${eol}` });
    pending = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && isDeepStrictEqual(old[i], next[j])) {
      flush(lineOf(i));
      i++;
      j++;
    } else if (j < m && (i === n || table[i]![j + 1]! >= table[i + 1]![j]!)) {
      pending.push(stringify(next[j], { version: '1.1', lineWidth: 0 }).trimEnd());
      j++;
    } else {
      splices.push({ at: lineOf(i), remove: afterLine(i) - lineOf(i), insert: '' });
      i++;
    }
  }
  const end = afterLine(n - 1);
  if (pending.length > 0 && end === text.length && text.length > 0 && !text.endsWith('\n')) {
    splices.push({ at: end, insert: eol });
  }
  flush(end);
  return splices;
}

function valueAfterKey(text: string, key: Node, value: unknown, indent: string): Splice[] {
  const colon = text.indexOf(':', key.range![1]);
  const eol = eolOf(text);
  const lines = blockValue(value, `${indent}  `);
  return [
    {
      at: colon + 1,
      insert: lines.inline !== undefined ? ` ${lines.inline}` : `${eol}${lines.block!.join(eol)}`,
    },
  ];
}

/** The new text of a value node, in the node's style: a flow collection stays flow, a block one block. */
function valueText(text: string, node: Node, value: unknown): string | undefined {
  const eol = eolOf(text);
  if (isScalar(node)) {
    if (value !== null && typeof value === 'object') {
      // A scalar (`[]` is a flow seq, not this) becoming a collection: written in flow style, in place.
      return flowText(value);
    }
    return scalarText(node, value);
  }
  if ((isSeq(node) || isMap(node)) && node.flow) return flowText(value);
  if (isSeq(node) || isMap(node)) {
    // A block collection: its first line starts at the node, the others at the node's column.
    const column = node.range![0] - lineStart(text, node.range![0]);
    const pad = ' '.repeat(column);
    if (value === null || typeof value !== 'object') return undefined; // the key's line would change shape
    if (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0) return undefined;
    const lines = stringify(value, { version: '1.1', lineWidth: 0, indentSeq: true }).trimEnd().split('\n');
    if (isSeq(node) && !lines.every((l) => l.startsWith('-') || l.startsWith(' '))) return undefined;
    return lines.map((l, i) => (i === 0 ? l : `${pad}${l}`)).join(eol);
  }
  return undefined;
}

/** A scalar's new text, keeping the quotes the user chose (not those a value needed: `"Hello "`). */
function scalarText(node: Scalar, value: unknown): string {
  if (typeof value === 'string' && !value.includes('\n')) {
    const chosen = typeof node.value === 'string' && !/^["']/.test(scalar(node.value));
    if (chosen && node.type === Scalar.QUOTE_DOUBLE) return JSON.stringify(value);
    if (chosen && node.type === Scalar.QUOTE_SINGLE) return `'${value.replaceAll("'", "''")}'`;
  }
  return stringify(value, { version: '1.1', lineWidth: 0 }).trimEnd();
}

function flowText(value: unknown): string {
  return stringify(value, {
    version: '1.1',
    lineWidth: 0,
    collectionStyle: 'flow',
    flowCollectionPadding: false,
  }).trimEnd();
}

/** A value after `key:`: inline (a scalar, an empty collection), or block lines indented by `indent`. */
function blockValue(value: unknown, indent: string): { inline?: string; block?: string[] } {
  const empty =
    value !== null &&
    typeof value === 'object' &&
    (Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0);
  if (value === null || typeof value !== 'object' || empty)
    return { inline: stringify(value, { version: '1.1', lineWidth: 0 }).trimEnd() };
  const lines = stringify(value, { version: '1.1', lineWidth: 0, indentSeq: true }).trimEnd().split('\n');
  return { block: lines.map((l) => `${indent}${l}`) };
}

/** `key: value` lines under `indent` for each pair. */
function pairLines(indent: string, pairs: Readonly<Record<string, unknown>>): string[] {
  const lines: string[] = [];
  for (const [key, value] of Object.entries(pairs)) {
    const v = blockValue(value, `${indent}  `);
    if (v.inline !== undefined) lines.push(`${indent}${keyText(key)}: ${v.inline}`);
    else lines.push(`${indent}${keyText(key)}:`, ...v.block!);
  }
  return lines;
}

function keyText(key: string): string {
  return scalar(key);
}

// ---------------------------------------------------------------------------------------------------
// Writing

/**
 * Writes through a temporary file in the same directory and a rename, keeping the file's mode (a 0600
 * `.sync.yml` holding a token stays 0600, an executable template stays executable); a new file gets the
 * default mode.
 */
export function writeAtomically(file: string, text: string | Uint8Array): void {
  let mode: number | undefined;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch (e) {
    if ((e as { code?: unknown }).code !== 'ENOENT') throw e;
  }
  const tmp = `${file}.pantograph-tmp-${process.pid}`;
  writeFileSync(tmp, text, mode === undefined ? {} : { mode });
  if (mode !== undefined) chmodSync(tmp, mode); // the umask applied to the mode given at creation
  renameSync(tmp, file);
}
