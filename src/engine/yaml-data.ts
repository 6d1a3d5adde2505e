/**
 * YAML (and JSON) text -> settings `Data`, keeping the position of every value by JSON pointer.
 *
 * The `yaml` library parses to a Document (kept for rewriting); we then walk its nodes ourselves rather
 * than calling `toJS()`, so that each value's offset is recorded under its pointer, `!replace` collections
 * become `ReplaceValue`s, and YAML 1.1 scalars can be checked for ambiguity. Integers stay `bigint`
 * (`intAsBigInt`), floats `number`. YAML 1.1 follows Ruby's Psych, which PDK uses: `yes`/`on`/`no`/`off`
 * (any case) are booleans, `y`/`n` stay strings, timestamps stay strings.
 */
import {
  Composer,
  type CST,
  Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Node,
  Parser,
  Scalar,
  type Tags,
  YAMLMap,
  YAMLParseError,
  YAMLSeq,
} from 'yaml';
import { TOO_DEEP_HINT } from '../epp/json-values.js';
import { lineColumn } from '../shared/position.js';
import {
  PSYCH_BASE60_FLOAT,
  PSYCH_BASE60_INT,
  PSYCH_DATE,
  PSYCH_FALSE,
  PSYCH_FLOAT,
  PSYCH_INFINITY,
  PSYCH_INTEGER,
  PSYCH_MINUS_INFINITY,
  PSYCH_NAN,
  PSYCH_TIME,
  PSYCH_TRUE,
  psychBase60,
  psychFloat,
  psychInteger,
} from '../shared/psych-scalars.js';
import { type EngineErrorCode, problem } from './errors.js';
import { type Data, type Position, type PositionLookup, ReplaceValue, type SyncData } from './model.js';
import type { Problem } from './render-plan.js';
import { MAX_YAML_DEPTH, tooDeepAt } from './yaml-depth.js';
import { MERGE_CONFLICT_HINT, mergeConflictAt, yamlErrorHint, yamlErrorMessage } from './yaml-hints.js';

// ---------------------------------------------------------------------------------------------------
// JSON pointers

export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `['gemfile', 'optional_gems', 0]` -> `/gemfile/optional_gems/0`. */
export function jsonPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapePointerSegment(s)}`).join('');
}

/** `/a~1b/0` -> `['a/b', '0']`. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The pointer of the parent value (`''` for the root). */
export function parentPointer(pointer: string): string {
  const i = pointer.lastIndexOf('/');
  return i <= 0 ? '' : pointer.slice(0, i);
}

// ---------------------------------------------------------------------------------------------------
// Positions

interface Offsets {
  value: number;
  key?: number;
}

/** Positions by pointer, turned into line/column (in characters) lazily. */
export class PositionIndex implements PositionLookup {
  private readonly offsets = new Map<string, Offsets>();

  constructor(
    readonly file: string,
    protected readonly text: string,
  ) {}

  record(pointer: string, value: number, key?: number): void {
    this.offsets.set(pointer, key === undefined ? { value } : { value, key });
  }

  has(pointer: string): boolean {
    return this.offsets.has(pointer);
  }

  positionOf(pointer: string): Position {
    return this.at(this.find(pointer)?.value ?? 0);
  }

  keyPositionOf(pointer: string): Position {
    const found = this.find(pointer);
    return this.at(found?.key ?? found?.value ?? 0);
  }

  /** Position of an offset in the file. */
  at(offset: number): Position {
    // Columns in characters, as every position Pantograph prints (the yaml package counts UTF-16 units).
    const { line, column } = lineColumn(this.text, offset);
    return { file: this.file, line, column };
  }

  private find(pointer: string): Offsets | undefined {
    let p = pointer;
    for (;;) {
      const found = this.offsets.get(p);
      if (found || p === '') return found;
      p = parentPointer(p);
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Tags

const BOOL_TAG = 'tag:yaml.org,2002:bool';
const INT_TAG = 'tag:yaml.org,2002:int';
const FLOAT_TAG = 'tag:yaml.org,2002:float';
const NULL_TAG = 'tag:yaml.org,2002:null';
const TIMESTAMP_TAG = 'tag:yaml.org,2002:timestamp';

/** Plain scalars as Psych reads them, in its order (see shared/psych-scalars.ts), as the yaml package's tags. */
const psychScalarTags = [
  { tag: BOOL_TAG, test: PSYCH_TRUE, resolve: () => new Scalar(true) },
  { tag: BOOL_TAG, test: PSYCH_FALSE, resolve: () => new Scalar(false) },
  // An empty plain scalar (`key:`) is null too.
  { tag: NULL_TAG, test: /^(?:~|null)?$/i, resolve: () => new Scalar(null) },
  { tag: FLOAT_TAG, test: PSYCH_INFINITY, resolve: () => new Scalar(Number.POSITIVE_INFINITY) },
  { tag: FLOAT_TAG, test: PSYCH_MINUS_INFINITY, resolve: () => new Scalar(Number.NEGATIVE_INFINITY) },
  { tag: FLOAT_TAG, test: PSYCH_NAN, resolve: () => new Scalar(Number.NaN) },
  { tag: INT_TAG, test: PSYCH_BASE60_INT, resolve: (s: string) => new Scalar(BigInt(psychBase60(s))) },
  { tag: FLOAT_TAG, test: PSYCH_BASE60_FLOAT, resolve: (s: string) => new Scalar(psychBase60(s)) },
  // `.` and `+.` alone are strings.
  { tag: FLOAT_TAG, test: PSYCH_FLOAT, resolve: (s: string) => new Scalar(psychFloat(s) ?? s) },
  { tag: INT_TAG, test: PSYCH_INTEGER, resolve: (s: string) => new Scalar(psychInteger(s)) },
].map((t) => ({ ...t, identify: () => false, default: true }));

/**
 * The yaml package's YAML 1.1 tags for what Psych reads otherwise: kept without their tests, so that they
 * still write values and read explicit tags (`!!int 10`) but never decide how a plain scalar reads.
 */
const REPLACED_TAGS = new Set([BOOL_TAG, INT_TAG, FLOAT_TAG, NULL_TAG, TIMESTAMP_TAG]);

function psychTags(tags: Tags): Tags {
  const kept = tags
    .filter((t) => t !== 'timestamp' && (typeof t === 'string' || t.tag !== TIMESTAMP_TAG))
    .map((t) => {
      if (typeof t === 'string' || !REPLACED_TAGS.has(t.tag) || !('test' in t)) return t;
      const { test: _test, ...untested } = t;
      return untested;
    });
  return [...(psychScalarTags as unknown as Tags), ...kept, ...replaceTags];
}

/** `!replace` on a mapping or sequence: kept as a plain collection node; the walk reads the tag. */
const replaceTags: Tags = [
  { tag: '!replace', collection: 'map', nodeClass: YAMLMap, resolve: (v) => v },
  { tag: '!replace', collection: 'seq', nodeClass: YAMLSeq, resolve: (v) => v },
];

// ---------------------------------------------------------------------------------------------------
// Parsing

export interface YamlDataOptions {
  /** `1.1` for `.sync.yml` (Psych's reading), `1.2` for JSON files. */
  readonly version: '1.1' | '1.2';
  /** Problem code for syntax errors and unsupported values. */
  readonly errorCode: EngineErrorCode;
  /** Accept `!replace` (`.sync.yml` only); elsewhere the tag is an unresolved-tag warning. */
  readonly replaceTag?: boolean;
  /**
   * A values file, read as Puppet reads one: a plain date or time (`2024-01-02`) is an error, as Puppet's
   * safe_load refuses the Date and Time Psych makes of it. Elsewhere (`.sync.yml`) it stays a string.
   */
  readonly refuseTimestamps?: boolean;
  /**
   * A values file: what a plain `:foo` value becomes (Psych makes a Ruby Symbol of it, Puppet a value of
   * type `Runtime[ruby, 'Symbol']`), as a value or a key. Elsewhere it stays the string `:foo`.
   */
  readonly symbol?: (name: string) => unknown;
}

export interface YamlData<T> {
  /** The converted data; `undefined` when the text has syntax errors. */
  readonly data: T | undefined;
  readonly document: Document;
  readonly positions: PositionIndex;
  /** Syntax errors (then `data` is undefined), unsupported values, ambiguous-scalar warnings. */
  readonly problems: Problem[];
}

/** Parses YAML or JSON text into data with positions. Never throws for bad input: see `problems`. */
export function parseYamlData(
  text: string,
  file: string,
  options: YamlDataOptions & { replaceTag: true },
): YamlData<SyncData>;
export function parseYamlData(text: string, file: string, options: YamlDataOptions): YamlData<Data>;
export function parseYamlData(text: string, file: string, options: YamlDataOptions): YamlData<SyncData> {
  const v11 = options.version === '1.1';
  const documentOptions = {
    version: options.version,
    intAsBigInt: true,
    keepSourceTokens: false,
    ...(v11
      ? { customTags: psychTags }
      : options.replaceTag
        ? { customTags: (t: Tags) => [...t, ...replaceTags] }
        : {}),
  };
  const positions = new PositionIndex(file, text);
  const problems: Problem[] = [];
  const tokens = Array.from(new Parser().parse(text));
  const deep = tooDeepAt(tokens);
  if (deep !== undefined) {
    const message = `lists and mappings nest deeper than ${MAX_YAML_DEPTH} levels`;
    problems.push(problem('error', options.errorCode, message, positions.at(deep), TOO_DEEP_HINT));
    return { data: undefined, document: new Document(null, documentOptions), positions, problems };
  }
  const document = composeDocument(tokens, text, documentOptions);
  // Git's conflict markers make the parser report every marker line in its own words, none of them
  // saying what happened: one error at the first marker says it.
  const merge = document.errors.length > 0 ? mergeConflictAt(text) : undefined;
  if (merge !== undefined) {
    problems.push(
      problem(
        'error',
        options.errorCode,
        'a git merge left conflict markers here',
        positions.at(merge),
        MERGE_CONFLICT_HINT,
      ),
    );
    return { data: undefined, document, positions, problems };
  }
  for (const e of document.errors) {
    // The composer recurses: a caller left with little stack may still meet its limit below MAX_YAML_DEPTH.
    if (/Maximum call stack size exceeded/.test(e.message)) {
      problems.push(
        problem(
          'error',
          options.errorCode,
          'lists and mappings nest too deeply here for the YAML reader',
          positions.at(e.pos[0]),
          TOO_DEEP_HINT,
        ),
      );
      continue;
    }
    problems.push(
      problem(
        'error',
        options.errorCode,
        yamlErrorMessage(e.code, e.message),
        positions.at(errorOffset(text, e)),
        yamlErrorHint(e.code, e.message),
      ),
    );
  }
  for (const w of document.warnings) {
    // A scalar tagged `!replace` gets our own, clearer error below.
    if (options.replaceTag && w.code === 'TAG_RESOLVE_FAILED' && w.message.includes('!replace')) continue;
    problems.push(
      problem('warning', options.errorCode, w.message.split('\n')[0] ?? w.message, positions.at(w.pos[0])),
    );
  }
  if (document.errors.length > 0) return { data: undefined, document, positions, problems };
  const walker = new Walker(document, positions, problems, options, v11);
  let data: SyncData;
  try {
    data = document.contents ? walker.convert(document.contents as Node, '', false) : null;
  } catch (error) {
    if (!(error instanceof AliasBomb)) throw error;
    const message = `YAML aliases here expand to more than ${MAX_ALIAS_VALUES.toLocaleString('en-US')} values`;
    const hint = 'nested aliases multiply (a "billion laughs"): write the values out, or alias less deeply';
    problems.push(problem('error', options.errorCode, message, positions.at(error.offset), hint));
    return { data: undefined, document, positions, problems };
  }
  positions.record('', document.contents?.range?.[0] ?? 0);
  return { data, document, positions, problems };
}

/** `parseDocument` on tokens already parsed: the first document, an error for any other (as it does). */
function composeDocument(
  tokens: readonly CST.Token[],
  text: string,
  options: ConstructorParameters<typeof Composer>[0],
): Document {
  let first: Document | undefined;
  for (const doc of new Composer(options).compose(tokens, true, text.length)) {
    if (first === undefined) {
      first = doc;
      continue;
    }
    const range: [number, number] = [doc.range[0], doc.range[1]];
    const message = 'Source contains multiple documents; please use YAML.parseAllDocuments()';
    first.errors.push(new YAMLParseError(range, 'MULTIPLE_DOCS', message));
    break;
  }
  return first!; // compose() always ends with a document, an empty text's too
}

/**
 * How many values (scalars and collections) aliases may expand to in one file. Each alias is a copy of its
 * anchor's value, and copies of copies multiply: a 500-byte "billion laughs" of nested aliases expands to
 * billions of values (40 s and 2.6 GB before this limit). A real `.sync.yml` aliases a list or two.
 */
export const MAX_ALIAS_VALUES = 10_000;

/** Thrown inside the walk when aliases expand beyond {@link MAX_ALIAS_VALUES}; `offset` is the alias's. */
class AliasBomb extends Error {
  constructor(readonly offset: number) {
    super('alias expansion limit');
  }
}

/** Converts nodes to data, recording positions and problems. */
class Walker {
  private readonly resolving = new Set<Node>();
  /** Values made so far as copies of an alias's target, and the outermost alias being expanded. */
  private aliasValues = 0;
  private aliasOffset: number | undefined;

  constructor(
    private readonly document: Document,
    private readonly positions: PositionIndex,
    private readonly problems: Problem[],
    private readonly options: YamlDataOptions,
    private readonly v11: boolean,
  ) {}

  convert(node: Node, pointer: string, insideReplace: boolean, keyOffset?: number): SyncData {
    // An empty value (`key:`) has no text of its own: it is where its key is.
    const empty = isScalar(node) && node.value === null && !node.source;
    const offset = empty && keyOffset !== undefined ? keyOffset : (node.range?.[0] ?? keyOffset ?? 0);
    this.positions.record(pointer, offset, keyOffset);
    if (this.aliasOffset !== undefined && ++this.aliasValues > MAX_ALIAS_VALUES) {
      throw new AliasBomb(this.aliasOffset);
    }
    if (isAlias(node)) return this.alias(node, pointer, insideReplace, keyOffset);
    if (isScalar(node)) return this.scalar(node, pointer);
    const replace = this.options.replaceTag === true && node.tag === '!replace';
    let value: SyncData;
    if (isMap(node)) value = this.map(node, pointer, insideReplace || replace);
    else if (isSeq(node)) value = this.seq(node, pointer, insideReplace || replace);
    else value = this.unsupported(pointer, 'this kind of YAML node is not supported');
    // A `!replace` inside another replaced value changes nothing: the outer one replaces it all.
    return replace && !insideReplace ? new ReplaceValue(value as Data) : value;
  }

  private alias(
    node: Node & { resolve(doc: Document): Node | undefined },
    pointer: string,
    r: boolean,
    k?: number,
  ) {
    const target = node.resolve(this.document);
    const name = `*${String((node as { source?: unknown }).source ?? '')}`;
    if (!target) {
      return this.unsupported(
        pointer,
        `the alias ${name} names no anchor (&${name.slice(1)}) set before it`,
        node.range?.[0],
        `set the anchor on the value to repeat, above this line (key: &${name.slice(1)} value), or write the value out here`,
      );
    }
    if (this.resolving.has(target)) {
      return this.unsupported(
        pointer,
        `the alias ${name} is inside the value its anchor names, which would contain itself without end`,
        node.range?.[0],
        'write the value out here, or move the anchor to a value that does not hold this alias',
      );
    }
    this.resolving.add(target);
    const outermost = this.aliasOffset === undefined;
    if (outermost) this.aliasOffset = node.range?.[0] ?? 0;
    try {
      return this.convert(target, pointer, r, k ?? node.range?.[0]);
    } finally {
      this.resolving.delete(target);
      if (outermost) this.aliasOffset = undefined;
    }
  }

  private scalar(node: Scalar, pointer: string): SyncData {
    if (this.options.replaceTag && node.tag === '!replace') {
      return this.unsupported(pointer, '`!replace` applies to a sequence or a mapping, not a scalar');
    }
    const v = node.value;
    if (v === null || v === undefined) return null;
    if (typeof v === 'string' && this.options.refuseTimestamps) this.refuseTimestamp(node, pointer);
    if (typeof v === 'string' && this.options.symbol && node.type === 'PLAIN' && !node.tag) {
      const name = psychSymbolName(v);
      if (name !== undefined) return this.options.symbol(name) as SyncData;
    }
    if (typeof v === 'string' || typeof v === 'bigint') {
      if (typeof v === 'bigint') this.checkAmbiguous(node, pointer);
      return v;
    }
    if (typeof v === 'boolean' || typeof v === 'number') {
      this.checkAmbiguous(node, pointer);
      return v;
    }
    return this.unsupported(pointer, `a value of type ${node.tag ?? typeof v} is not supported`);
  }

  private map(node: YAMLMap, pointer: string, insideReplace: boolean): SyncData {
    const { out, symbolKeys } = this.mapEntries(node, pointer, insideReplace);
    if (symbolKeys === undefined || this.options.symbol === undefined) return out;
    // A `:key` is a Symbol too: the mapping becomes a Map, the only data here with keys that are no strings.
    const symbol = this.options.symbol;
    return new Map(
      Object.entries(out).map(([k, v]) => [symbolKeys.has(k) ? symbol(symbolKeys.get(k)!) : k, v]),
    ) as unknown as SyncData;
  }

  /** A mapping's keys (as their text) and values, and which keys are `:symbols` (a values file). */
  private mapEntries(node: YAMLMap, pointer: string, insideReplace: boolean): MapEntries {
    const entries: MapEntries = { out: {}, symbolKeys: undefined };
    const { out } = entries;
    const merges: Node[] = [];
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      const keyOffset = keyNode?.range?.[0] ?? node.range?.[0] ?? 0;
      if (keyNode !== null && !isScalar(keyNode)) {
        this.unsupported(pointer, 'mapping keys must be scalars', keyOffset);
        continue;
      }
      const key = keyNode === null ? '' : keyText(keyNode);
      if (node.flow) this.refuseFlowColon(keyNode);
      if (node.flow) this.refuseFlowColon(pair.value as Node | null);
      if (keyNode !== null && this.options.refuseTimestamps)
        this.refuseTimestamp(keyNode, pointer, keyOffset);
      if (this.v11 && key === '<<' && keyNode?.type === 'PLAIN' && pair.value) {
        // A values file is read as Psych reads it: the merge happens where `<<` stands, so the keys
        // before it lose to the merged ones. Elsewhere (`.sync.yml`) keys given anywhere win.
        if (this.options.symbol) this.merge(entries, pair.value as Node, pointer, insideReplace, true);
        else merges.push(pair.value as Node);
        continue;
      }
      const childPointer = `${pointer}/${escapePointerSegment(key)}`;
      const valueNode = pair.value as Node | null;
      let value: SyncData = null;
      if (valueNode === null) this.positions.record(childPointer, keyOffset, keyOffset);
      else value = this.convert(valueNode, childPointer, insideReplace, keyOffset);
      setKey(out, key, value);
      if (this.options.symbol && keyNode?.type === 'PLAIN' && !keyNode.tag) {
        const name = psychSymbolName(key);
        if (name !== undefined) (entries.symbolKeys ??= new Map()).set(key, name);
      }
    }
    for (const m of merges) this.merge(entries, m, pointer, insideReplace, false);
    return entries;
  }

  /**
   * YAML 1.1 merge keys. The spec's (`.sync.yml`): keys already present win; with a list, earlier mappings
   * win. Psych's (`overwrite`, values files): the merged keys replace those before `<<`; a list is merged
   * from its last mapping to its first, so earlier mappings still win among themselves.
   */
  private merge(
    into: MapEntries,
    node: Node,
    pointer: string,
    insideReplace: boolean,
    overwrite: boolean,
  ): void {
    const target = isAlias(node) ? node.resolve(this.document) : node;
    const sources = isSeq(target) ? target.items : [target];
    const mappings: MapEntries[] = [];
    for (const item of sources) {
      const resolved = isAlias(item) ? item.resolve(this.document) : item;
      if (!isMap(resolved)) {
        this.unsupported(pointer, 'a merge key `<<` takes a mapping or a list of mappings');
        continue;
      }
      mappings.push(this.mapEntries(resolved, pointer, insideReplace));
    }
    if (overwrite) {
      const merged: MapEntries = { out: {}, symbolKeys: undefined };
      for (const m of mappings.reverse()) addEntries(merged, m, true);
      addEntries(into, merged, true);
    } else {
      for (const m of mappings) addEntries(into, m, false);
    }
  }

  private seq(node: YAMLSeq, pointer: string, insideReplace: boolean): SyncData {
    return node.items.map((item, i) => {
      const p = `${pointer}/${i}`;
      if (isPair(item)) return this.unsupported(p, 'pairs inside a sequence are not supported');
      if (item === null) return null;
      if (node.flow) this.refuseFlowColon(item as Node);
      return this.convert(item as Node, p, insideReplace);
    });
  }

  /** Warns on plain scalars YAML 1.1 reads differently from YAML 1.2 (`yes`, `on`, `0777`, `1:30`). */
  private checkAmbiguous(node: Scalar, pointer: string): void {
    if (!this.v11 || node.type !== 'PLAIN' || node.tag) return;
    const src = node.source ?? '';
    const ambiguous =
      typeof node.value === 'boolean'
        ? !/^(?:true|false)$/i.test(src)
        : /^[-+]?0[0-7_,]+$|^[-+]?0b|:|_|,/.test(src);
    if (!ambiguous) return;
    this.problems.push(
      problem(
        'warning',
        'SYNC_AMBIGUOUS_SCALAR',
        `\`${src}\` is read as ${JSON.stringify(String(node.value))} (${typeof node.value === 'boolean' ? 'a boolean' : 'a number'}) under YAML 1.1`,
        this.positions.positionOf(pointer),
        `quote it ('${src}') if you mean the string`,
      ),
    );
  }

  /** A plain date or time (or one tagged `!!timestamp`), in a values file: Puppet's error, in its words. */
  private refuseTimestamp(node: Scalar, pointer: string, offset?: number): void {
    const text = String(node.value);
    const tagged = node.tag === TIMESTAMP_TAG;
    if (!tagged && (node.type !== 'PLAIN' || node.tag)) return;
    const kind = PSYCH_TIME.test(text) ? 'Time' : PSYCH_DATE.test(text) || tagged ? 'Date' : undefined;
    if (kind === undefined) return;
    this.unsupported(
      pointer,
      `Tried to load unspecified class: ${kind}`,
      offset,
      `Puppet's YAML reader refuses dates and times: quote it ('${text}') to give a String`,
    );
  }

  /**
   * A values file is read by Psych's libyaml, whose scanner starts no plain scalar with `:` inside `[...]`
   * or `{...}`: `[:a]` is its parse error at the colon (a block list `- :a` is a Symbol).
   */
  private refuseFlowColon(node: Node | null): void {
    if (!this.options.symbol || node === null || !isScalar(node) || node.type !== 'PLAIN') return;
    const offset = node.range?.[0];
    if (offset === undefined || node.source?.startsWith(':') !== true) return;
    this.problems.push(
      problem(
        'error',
        this.options.errorCode,
        'did not find expected node content while parsing a flow node',
        this.positions.at(offset),
        `Puppet's YAML reader starts no plain value with ':' inside [...] or {...}: quote it ('${node.source}') for a String, or write the list in block style (- ${node.source}) for a Symbol`,
      ),
    );
  }

  private unsupported(pointer: string, message: string, offset?: number, hint?: string): null {
    const position = offset === undefined ? this.positions.positionOf(pointer) : this.positions.at(offset);
    this.problems.push(problem('error', this.options.errorCode, message, position, hint));
    return null;
  }
}

/** Psych's Symbol of a plain scalar (`:foo`, `:"a b"`: its name), or undefined for any other text. */
function psychSymbolName(text: string): string | undefined {
  if (!/^:./s.test(text)) return undefined;
  const quoted = /^:(["'])(.*)\1/s.exec(text);
  return quoted ? quoted[2]!.replace(/^:/, '') : text.slice(1);
}

/** A key as text: strings as they are, other scalars (`on`, `1`, `~`) as written. */
function keyText(node: Scalar): string {
  if (typeof node.value === 'string') return node.value;
  return node.source ?? String(node.value);
}

/** Sets a key safely, even `__proto__`. */
/** A mapping being read: its keys as text, and which of them are `:symbols`. */
interface MapEntries {
  readonly out: { [key: string]: SyncData };
  symbolKeys: Map<string, string> | undefined;
}

/** Ruby's `merge!` (`overwrite`) or the keys `into` lacks, with their symbol-ness. */
function addEntries(into: MapEntries, from: MapEntries, overwrite: boolean): void {
  for (const [k, v] of Object.entries(from.out)) {
    if (!overwrite && Object.hasOwn(into.out, k)) continue;
    setKey(into.out, k, v);
    const name = from.symbolKeys?.get(k);
    if (name !== undefined) (into.symbolKeys ??= new Map()).set(k, name);
  }
}

export function setKey<T>(obj: { [key: string]: T }, key: string, value: T): void {
  if (key === '__proto__')
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** Data for JSON tools (ajv): bigint -> number, `ReplaceValue` unwrapped. */
export function toJson(value: SyncData | undefined): unknown {
  if (value === undefined || value === null) return value ?? null;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof ReplaceValue) return toJson(value.value);
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') {
    const out: { [key: string]: unknown } = {};
    for (const [k, v] of Object.entries(value)) setKey(out, k, toJson(v));
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Strict JSON

/**
 * Where a syntax error is best shown: the yaml package places a bad indentation at the line's first column
 * (the key is further right) and a quoted scalar never closed at the end of the text (where there is
 * nothing to see); Ruby's Psych names the opening quote, and so do we.
 */
function errorOffset(
  text: string,
  e: { readonly code: string; readonly message: string; readonly pos: readonly [number, number] },
): number {
  let at = e.pos[0];
  if (e.code === 'MISSING_CHAR' && /quote/.test(e.message)) {
    const quote = e.message.includes("'quote") ? "'" : '"';
    for (let i = Math.min(at, text.length) - 1; i >= 0; i--) {
      if (text[i] !== quote) continue;
      // `\"` inside a double-quoted scalar, `''` inside a single-quoted one: not the opening quote.
      if (quote === '"' && text[i - 1] === '\\') continue;
      if (quote === "'" && (text[i - 1] === "'" || text[i + 1] === "'")) {
        i--;
        continue;
      }
      return i;
    }
    return at;
  }
  while (at < text.length && (text[at] === ' ' || text[at] === '\t')) at++;
  return at;
}
