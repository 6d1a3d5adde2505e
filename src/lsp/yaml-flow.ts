/**
 * The cursor's place inside a flow list or mapping (`[a, b]`, `{a: 1}`), which may run over several lines
 * (`templates: [ntp,\n    mo]`): indentation says nothing there (session 34: the second line was read as a
 * key `mo]` of the mapping above). The yaml package's nodes carry their offsets, and its parser keeps going
 * past errors, so a flow collection being typed (no `]` yet) is still found; yaml-path.ts keeps reading
 * block YAML by indentation, which a text mid-edit often needs.
 */
import { isCollection, isMap, isPair, isScalar, isSeq, type Node, parseDocument, type YAMLMap } from 'yaml';
import type { YamlPlace } from './yaml-path.js';

/** A flow collection and the keys of the mappings down to it (its own key last, when it is a value). */
interface Flow {
  readonly node: Node & { items: unknown[] };
  readonly path: readonly string[];
  /** Whether it is the value of a key (`k: [..]`), rather than an item of a list. */
  readonly owned: boolean;
  /** Its opening bracket, and its closing one (or where it stops, when not closed yet). */
  readonly open: number;
  readonly close: number;
}

export class FlowCollections {
  private readonly flows: Flow[] = [];

  constructor(private readonly text: string) {
    const doc = parseDocument(text, { version: '1.1', uniqueKeys: false, keepSourceTokens: false });
    this.walk(doc.contents as Node | null, [], false);
  }

  /** Whether `offset` (a line's first character) is inside a flow collection: no block line, then. */
  inside(offset: number): boolean {
    return this.flows.some((f) => f.open < offset && offset <= f.close);
  }

  /** The place at `offset` when it is inside a flow collection, or on a line that one continues onto. */
  placeAt(offset: number, lineFirst: number): YamlPlace | undefined {
    const at = this.innermost(offset);
    if (at) return isMap(at.node) ? this.inMap(at, offset) : this.inSeq(at, offset);
    // After the `]` on a line the collection ran onto: the place after the key's value, as on its line.
    const outer = this.flows.find((f) => f.open < lineFirst && lineFirst <= f.close);
    if (!outer) return undefined;
    const parents = outer.owned ? outer.path.slice(0, -1) : outer.path;
    return { parents, key: undefined, listItem: !outer.owned, item: undefined, start: offset, end: offset };
  }

  private innermost(offset: number): Flow | undefined {
    let found: Flow | undefined;
    for (const f of this.flows) {
      if (f.open < offset && offset <= f.close && (!found || f.open > found.open)) found = f;
    }
    return found;
  }

  /** A list's item at the cursor: the word between the separators around it. */
  private inSeq(f: Flow, offset: number): YamlPlace {
    const { text } = this;
    const stop = (c: string | undefined) => c === undefined || ',[]{}\n'.includes(c);
    let start = offset;
    while (start > f.open + 1 && !stop(text[start - 1])) start--;
    let end = offset;
    while (end < f.close && !stop(text[end])) end++;
    const raw = text.slice(start, end).replace(/\r$/, '');
    const lead = raw.length - raw.trimStart().length;
    const word = raw.trim();
    const item = unquote(word);
    return {
      parents: f.path,
      key: undefined,
      listItem: true,
      item: item === '' ? undefined : item,
      start: start + lead,
      end: start + lead + word.length,
    };
  }

  /** A mapping's key at the cursor, or a place for one (on a value: no key, as in a block mapping). */
  private inMap(f: Flow, offset: number): YamlPlace {
    for (const pair of (f.node as YAMLMap).items) {
      const key = pair.key as Node | null;
      if (!isScalar(key) || !key.range || offset < key.range[0] || offset > key.range[1]) continue;
      return {
        parents: f.path,
        key: String(key.value ?? ''),
        listItem: false,
        item: undefined,
        start: key.range[0],
        end: key.range[1],
      };
    }
    return { parents: f.path, key: undefined, listItem: false, item: undefined, start: offset, end: offset };
  }

  private walk(node: Node | null, path: readonly string[], owned: boolean): void {
    if (!isCollection(node) || !node.range) return;
    if (node.flow) {
      const [open, end] = node.range;
      const closed = ']}'.includes(this.text[end - 1] ?? '') && end - 1 > open;
      this.flows.push({ node, path, owned, open, close: closed ? end - 1 : end });
    }
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        const key = isScalar(item.key) ? String(item.key.value ?? '') : undefined;
        this.walk(item.value as Node | null, key === undefined ? path : [...path, key], true);
      } else if (isSeq(node)) this.walk(item as Node | null, path, false);
    }
  }
}

function unquote(text: string): string {
  return /^(['"]).*\1$/.test(text) ? text.slice(1, -1) : text;
}
