/**
 * YAML aliases (`*name`) in a Document that `convert` rearranges. Ruby's YAML (and so PDK) reads an alias
 * as a copy of the value its anchor (`&name`) marks; `convert` walks nodes, not data, so an alias has to be
 * made a copy where the walk needs the value itself (a file's whole section, a per-file flag), and where
 * the rearranged file no longer holds its anchor before it (the anchor's key went to a comment, or the
 * sections moved): the yaml library cannot print such an alias at all.
 */
import {
  type Alias,
  type Document,
  isAlias,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  visit,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';

/** Every alias of the Document as first read, with the node its anchor marks there. */
export type AliasTargets = ReadonlyMap<Alias, Node>;

export function aliasTargets(doc: Document): AliasTargets {
  const targets = new Map<Alias, Node>();
  visit(doc, {
    Alias(_, alias) {
      const target = alias.resolve(doc);
      if (target) targets.set(alias, target);
    },
  });
  return targets;
}

/**
 * Copies the value in place of a top-level key's alias (`Gemfile: *gems`) and of a flag's alias inside a
 * section (`unmanaged: *yes`): they are read as the mapping or the boolean they stand for.
 */
export function expandSectionAliases(top: YAMLMap, targets: AliasTargets, flags: readonly string[]): void {
  for (const pair of top.items as Pair[]) {
    if (isAlias(pair.value)) pair.value = copyOf(pair.value, targets) ?? pair.value;
    if (!isMap(pair.value)) continue;
    for (const inner of (pair.value as YAMLMap).items as Pair[]) {
      const key = isScalar(inner.key) ? inner.key.value : undefined;
      if (flags.includes(key as string) && isAlias(inner.value)) {
        inner.value = copyOf(inner.value, targets) ?? inner.value;
      }
    }
  }
}

/** Copies the value in place of each alias whose anchor the rearranged Document no longer sets before it. */
export function expandDanglingAliases(doc: Document, targets: AliasTargets): void {
  visit(doc, {
    Alias(_, alias) {
      const original = targets.get(alias);
      if (original === undefined || alias.resolve(doc) === original) return;
      return copyOf(alias, targets);
    },
  });
}

/**
 * A copy of the value an alias stands for, with the aliases inside it copied out too and no anchors (the
 * copy's would repeat the original's): it means the same wherever it is put.
 */
function copyOf(alias: Alias, targets: AliasTargets): Node | undefined {
  const target = targets.get(alias);
  return target === undefined ? undefined : writtenOut(target, targets);
}

function writtenOut(node: Node, targets: AliasTargets): Node {
  if (isAlias(node)) return copyOf(node, targets) ?? (node.clone() as Node);
  const copy = node.clone() as Node;
  delete (copy as { anchor?: string }).anchor;
  if (isMap(node) || isSeq(node)) {
    // clone() copied the items; they are replaced by copies written out in turn.
    (copy as YAMLMap | YAMLSeq).items = (node.items as (Pair | Node)[]).map((item) => {
      if (!isPair(item)) return writtenOut(item, targets);
      const pair = item.clone() as Pair;
      if (isNode(item.value)) pair.value = writtenOut(item.value, targets);
      return pair;
    }) as never;
  }
  return copy;
}
