/**
 * YAML 1.1 merge keys (`<<: *defaults`, `<<: [*a, *b]`) written out as the pairs they stand for, in
 * place: what Ruby's YAML (and so PDK) reads them as, for code that walks a Document's pairs rather than
 * its data (`convert` keeps comments and positions). As in YAML, a key the mapping has itself wins over a
 * merged one, and an earlier source over a later one.
 */
import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  visit,
  type YAMLMap,
} from 'yaml';

export function expandMergeKeys(doc: Document): void {
  visit(doc, {
    Map(_, map) {
      if (!map.items.some(isMergePair)) return;
      const own = new Set(map.items.filter((p) => !isMergePair(p)).map(keyText));
      const items: Pair[] = [];
      for (const pair of map.items) {
        if (!isMergePair(pair)) {
          items.push(pair);
          continue;
        }
        for (const source of mergedMaps(doc, pair.value as Node | null)) {
          for (const merged of source.items) {
            const key = keyText(merged);
            if (own.has(key)) continue;
            own.add(key);
            items.push(merged.clone(doc.schema));
          }
        }
      }
      map.items = items;
    },
  });
}

function isMergePair(pair: Pair): boolean {
  return isScalar(pair.key) && typeof pair.key.value === 'symbol';
}

function keyText(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** The mappings a merge key's value names: one alias, a list of them, or a mapping written in place. */
function mergedMaps(doc: Document, value: Node | null): YAMLMap[] {
  const one = (node: unknown): YAMLMap[] => {
    const target = isAlias(node) ? node.resolve(doc) : node;
    return isMap(target) ? [target as YAMLMap] : [];
  };
  return isSeq(value) ? value.items.flatMap(one) : one(value);
}
