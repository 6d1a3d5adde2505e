/**
 * Edits of `.sync.yml` text made for a client: settings set key by key, `template_sources` replaced
 * (`fleet`'s overrides), a template's section replaced whole (the web interface's fallback when
 * sync-text-edit.ts's splices do not cover a shape). Comments and key order are kept (the yaml Document is edited, not rebuilt); a value
 * already equal is not touched, so a file already in line stays byte for byte.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, isScalar, isSeq, type Node, parseDocument, Scalar, stringify, visit } from 'yaml';
import type { Data, DataMap } from './model.js';
import { toJson } from './yaml-data.js';

export interface SyncOverrides {
  readonly templateSources?: readonly Data[];
  readonly settings: DataMap;
}

export interface OverrideResult {
  readonly text: string;
  /** Dotted paths of the values set, e.g. `pdk_template.template_sources`, `rubocop.enabled`. */
  readonly changed: readonly string[];
}

export function applyOverrides(text: string, overrides: SyncOverrides): OverrideResult {
  const document = parseDocument(text, { keepSourceTokens: false });
  if (document.errors.length > 0) return { text, changed: [] }; // planning reports the syntax error
  const changed: string[] = [];
  const set = (path: readonly string[], value: unknown) => {
    const current = document.getIn(path, false);
    const plain = current === undefined ? undefined : toPlain(document.getIn(path, true));
    if (plain !== undefined && isDeepStrictEqual(plain, value)) return;
    setValue(document, path, value);
    changed.push(path.join('.'));
  };
  if (overrides.templateSources) {
    set(['pdk_template', 'template_sources'], toJson(overrides.templateSources as Data));
  }
  const walk = (prefix: readonly string[], settings: DataMap) => {
    for (const [key, value] of Object.entries(settings)) {
      const path = [...prefix, key];
      const isMapping = typeof value === 'object' && value !== null && !Array.isArray(value);
      // A section absent or `null` in the file is created whole; otherwise merge key by key.
      if (isMapping && prefix.length >= 0 && isMap(document.getIn(path, true))) walk(path, value as DataMap);
      else set(path, toJson(value));
    }
  };
  walk([], overrides.settings);
  return changed.length === 0 ? { text, changed } : { text: document.toString(), changed };
}

/** Sets a value; a scalar replacing a scalar changes only its value, so its comments stay with it. */
function setValue(document: ReturnType<typeof parseDocument>, path: readonly string[], value: unknown): void {
  const node = document.getIn(path, true);
  if (isScalar(node) && (value === null || typeof value !== 'object')) {
    node.value = value;
    // A type tag (`!!binary`, `!!int`) said what the old value was, not the new one: printed with it, a
    // text as `!!binary` threw (a 500 of the web interface). `!replace` is the project's and stays.
    if (node.tag !== undefined && node.tag !== '!replace') delete node.tag;
    quoteWhatYaml11Misreads(node);
  } else {
    const next = quoteWhatYaml11Misreads(document.createNode(value));
    // A collection replacing a collection keeps its tag (`!replace`), its style and its comments.
    if (
      (isSeq(node) || isMap(node)) &&
      (isSeq(next) || isMap(next)) &&
      Array.isArray(value) === isSeq(node)
    ) {
      if (node.tag) next.tag = node.tag;
      next.flow = node.flow === true;
      if (node.comment) next.comment = node.comment;
      if (node.commentBefore) next.commentBefore = node.commentBefore;
      if (node.spaceBefore) next.spaceBefore = node.spaceBefore;
    }
    document.setIn(path, next);
  }
}

/**
 * `.sync.yml` is read as YAML 1.1 (PDK's Psych), but the Document prints YAML 1.2, where `no`, `off`,
 * `010`, `1:30` and `2024-01-31` are plain strings: written so, they would come back as a boolean, a
 * number or a date. Such strings are quoted; others keep the style the printer picks. The Document is
 * not parsed as 1.1 instead: that would respell the file's own values (`y` is a boolean to the yaml
 * package's 1.1, not to Psych).
 */
function quoteWhatYaml11Misreads<T extends Node>(node: T): T {
  visit(node, {
    Scalar(_, scalar) {
      if (typeof scalar.value !== 'string' || (scalar.type && scalar.type !== Scalar.PLAIN)) return; // quoted already
      const plain12 = stringify(scalar.value, { lineWidth: 0 }).trimEnd() === scalar.value;
      const plain11 = stringify(scalar.value, { version: '1.1', lineWidth: 0 }).trimEnd() === scalar.value;
      if (plain12 && !plain11) scalar.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return node;
}

function toPlain(node: unknown): unknown {
  if (node !== null && typeof node === 'object' && 'toJSON' in node) {
    return (node as { toJSON(): unknown }).toJSON();
  }
  return node;
}

/**
 * The text with a template's settings section made equal to `settings`: keys set one by one (a key whose
 * value is unchanged keeps its text and comments), keys not given removed.
 */
export function setSection(
  text: string,
  template: string,
  settings: Readonly<Record<string, unknown>>,
): OverrideResult {
  const document = parseDocument(text);
  if (document.errors.length > 0) return { text, changed: [] };
  const section = document.getIn([template], true);
  if (!isMap(section)) {
    if (Object.keys(settings).length === 0) return { text, changed: [] };
    document.setIn([template], quoteWhatYaml11Misreads(document.createNode(settings)));
    return { text: document.toString(), changed: [template] };
  }
  const changed: string[] = [];
  for (const key of Object.keys(section.toJSON() as object)) {
    if (!Object.hasOwn(settings, key)) {
      section.delete(key);
      changed.push(`${template}.${key}`);
    }
  }
  for (const [key, value] of Object.entries(settings)) {
    const current = section.get(key, true);
    if (current !== undefined && isDeepStrictEqual(toPlain(current), value)) continue;
    setValue(document, [template, key], value);
    changed.push(`${template}.${key}`);
  }
  return changed.length === 0 ? { text, changed } : { text: document.toString(), changed };
}
