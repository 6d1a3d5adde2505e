/**
 * What hover, go-to-definition, symbols and completion need of an EPP text's syntax tree, worked out in
 * the check worker (check-worker.ts) under its limits: parsing a 2-million-character template takes
 * the better part of a second, and a hostile one longer, which on the server's thread would stall every
 * other file. The answers are small and plain (offsets, names, slices of text); epp.ts turns them into
 * the protocol's hovers and locations with what only the server knows (the template's settings, the
 * module's files).
 *
 * The tree is that of `source`, the last text that parsed, seen through the edits made since (`text` is
 * the document's current text): offsets in the answers are the current text's.
 */
import {
  declarationAt,
  parameterNameSpan,
  parseEpp,
  type Reference,
  referenceAt,
  type TemplateNode,
  visibleDeclarations,
} from '../epp/index.js';

export interface Span {
  readonly start: number;
  readonly end: number;
}

type Delimiters = readonly [string, string] | undefined;

export type EppQuery =
  /** What is named at `offset` (of the current text), and, for a variable, where it is declared. */
  | {
      readonly kind: 'epp-query';
      readonly what: 'reference';
      readonly source: string;
      readonly text: string;
      readonly delimiters: Delimiters;
      readonly offset: number;
    }
  /** The template's parameters. */
  | {
      readonly kind: 'epp-query';
      readonly what: 'symbols';
      readonly source: string;
      readonly text: string;
      readonly delimiters: Delimiters;
    }
  /**
   * The names the cursor can see, for completion: from the current text if it parses (`parses`), or
   * with a name put after the lone `$` at `offset`, else from `lastGood`.
   */
  | {
      readonly kind: 'epp-query';
      readonly what: 'scope';
      readonly text: string;
      readonly parses: boolean;
      readonly lastGood: string | undefined;
      readonly delimiters: Delimiters;
      readonly offset: number;
    };

export interface DeclarationAnswer {
  readonly kind: 'parameter' | 'assignment' | 'block-parameter';
  /** The declaring `$name` (a parameter's name), in the current text, if the edits since left it. */
  readonly range: Span | undefined;
  /** A parameter's type and default as written (`type` absent: `Any`). */
  readonly parameter?: { readonly type: string | undefined; readonly default: string | undefined };
  /** An assignment's value as written, its first 200 characters. */
  readonly value?: string;
}

export interface ReferenceAnswer {
  readonly ref: Reference;
  /** The name's span in the current text, if the edits since left it. */
  readonly range: Span | undefined;
  readonly declaration: DeclarationAnswer | undefined;
}

export interface SymbolAnswer {
  readonly name: string;
  readonly detail: string;
  readonly range: Span;
  readonly selection: Span;
}

export interface ScopeAnswer {
  readonly names: readonly { readonly name: string; readonly kind: DeclarationAnswer['kind'] }[];
  /** Whether the template declares parameters (then it receives only those, not the settings). */
  readonly hasParams: boolean;
}

export type EppQueryResult =
  | { readonly what: 'reference'; readonly answer: ReferenceAnswer | undefined }
  | { readonly what: 'symbols'; readonly answer: SymbolAnswer[] }
  | { readonly what: 'scope'; readonly answer: ScopeAnswer };

/** The last trees made, by delimiters and text: a burst of requests on one text parses it once. */
const trees = new Map<string, TemplateNode | null>();
const KEPT_TREES = 2;

function treeOf(text: string, delimiters: Delimiters): TemplateNode | undefined {
  const key = `${delimiters?.join('\u0000') ?? ''}\u0000${text}`;
  let tree = trees.get(key);
  if (tree === undefined) {
    try {
      tree = parseEpp(text, { delimiters });
    } catch {
      tree = null;
    }
    if (trees.size >= KEPT_TREES) trees.delete(trees.keys().next().value!);
  } else {
    trees.delete(key);
  }
  trees.set(key, tree);
  return tree ?? undefined;
}

export function answerEppQuery(query: EppQuery): EppQueryResult {
  switch (query.what) {
    case 'reference':
      return {
        what: 'reference',
        answer: reference(query.source, query.text, query.delimiters, query.offset),
      };
    case 'symbols':
      return { what: 'symbols', answer: symbols(query.source, query.text, query.delimiters) };
    case 'scope':
      return { what: 'scope', answer: scope(query) };
  }
}

function reference(
  source: string,
  text: string,
  delimiters: Delimiters,
  at: number,
): ReferenceAnswer | undefined {
  const ast = treeOf(source, delimiters);
  if (!ast) return undefined;
  const view = viewOf(source, text);
  const offset = view.toTree(at);
  if (offset === undefined) return undefined;
  const ref = referenceAt(ast, offset);
  if (!ref) return undefined;
  return {
    ref,
    range: view.spanOf(ref),
    declaration: ref.kind === 'variable' ? declaration(ast, source, view, ref.name, offset) : undefined,
  };
}

function declaration(
  ast: TemplateNode,
  source: string,
  view: View,
  name: string,
  offset: number,
): DeclarationAnswer | undefined {
  const d = declarationAt(ast, name, offset);
  if (!d) return undefined;
  const p = d.parameter;
  const slice = (span: Span | undefined, max = Number.POSITIVE_INFINITY) =>
    span ? source.slice(span.start, Math.min(span.end, span.start + max)) : undefined;
  return {
    kind: d.kind,
    range: view.spanOf(p ? parameterNameSpan(p) : d),
    ...(p ? { parameter: { type: slice(p.valueType), default: slice(p.defaultValue) } } : {}),
    ...(d.value ? { value: source.slice(d.value.start, Math.min(d.value.end, d.value.start + 200)) } : {}),
  };
}

function symbols(source: string, text: string, delimiters: Delimiters): SymbolAnswer[] {
  const ast = treeOf(source, delimiters);
  if (!ast) return [];
  const view = viewOf(source, text);
  const found: SymbolAnswer[] = [];
  for (const p of ast.params ?? []) {
    const range = view.spanOf(p);
    const selection = view.spanOf(parameterNameSpan(p));
    if (!range || !selection) continue;
    const detail = p.valueType ? source.slice(p.valueType.start, p.valueType.end) : 'Any';
    found.push({ name: `$${p.name}`, detail, range, selection });
  }
  return found;
}

/**
 * A lone `$` does not parse; with a name put after it, the text usually does, and when the tag being
 * typed is not closed yet (`Hello <%= $na` at the end of the file), with the tag closed after it too.
 * Else the last good tree.
 */
function scope(query: Extract<EppQuery, { what: 'scope' }>): ScopeAnswer {
  const { text, offset, delimiters } = query;
  let tree = query.parses ? treeOf(text, delimiters) : undefined;
  const before = `${text.slice(0, offset)}__`;
  const close = ` ${delimiters?.[1] ?? '%>'}`;
  for (const attempt of [before + text.slice(offset), before + close + text.slice(offset), before + close]) {
    if (tree) break;
    try {
      tree = parseEpp(attempt, { delimiters });
    } catch {
      // The next attempt, then the last good tree.
    }
  }
  if (!tree && query.lastGood !== undefined) tree = treeOf(query.lastGood, delimiters);
  if (!tree) return { names: [], hasParams: false };
  const names = visibleDeclarations(tree, Math.min(offset, tree.end)).map((d) => ({
    name: d.name,
    kind: d.kind,
  }));
  return { names, hasParams: tree.params !== undefined };
}

/**
 * A tree of an earlier text seen through the current one: offsets before the edited region are the same,
 * those after it are shifted by the edit's length, those inside it have no counterpart.
 */
interface View {
  /** The tree's offset of an offset of the current text, if the edit left it. */
  readonly toTree: (offset: number) => number | undefined;
  /** The current text's span of a span of the tree, if the edit left it. */
  readonly spanOf: (span: Span) => Span | undefined;
}

function viewOf(old: string, current: string): View {
  let toTree: (o: number) => number | undefined;
  let fromTree: (o: number) => number | undefined;
  if (old === current) {
    toTree = (o) => o;
    fromTree = (o) => o;
  } else {
    const shortest = Math.min(old.length, current.length);
    let prefix = 0;
    while (prefix < shortest && old.charCodeAt(prefix) === current.charCodeAt(prefix)) prefix++;
    let suffix = 0;
    while (
      suffix < shortest - prefix &&
      old.charCodeAt(old.length - 1 - suffix) === current.charCodeAt(current.length - 1 - suffix)
    )
      suffix++;
    const shift = current.length - old.length;
    toTree = (o) => (o < prefix ? o : o >= current.length - suffix ? o - shift : undefined);
    fromTree = (o) => (o < prefix ? o : o >= old.length - suffix ? o + shift : undefined);
  }
  return {
    toTree,
    spanOf: (span) => {
      const start = fromTree(span.start);
      const last = span.end > span.start ? fromTree(span.end - 1) : start;
      if (start === undefined || last === undefined) return undefined;
      return { start, end: span.end > span.start ? last + 1 : start };
    },
  };
}
