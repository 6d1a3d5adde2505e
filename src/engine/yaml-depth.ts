/**
 * How deep a YAML text nests its lists and mappings, measured on the yaml package's CST (its parser keeps a
 * stack of its own) before the composer, which recurses, builds the Document. A hostile file nested
 * thousands deep exhausted the composer's stack at a place that depended on how much stack its caller had
 * left: `validate` and the web interface named two different columns for the same file (session 34).
 * Past MAX_YAML_DEPTH the file is refused at the collection that opens the level one too deep, the same
 * place for every caller, as JSON files are (MAX_JSON_DEPTH).
 */
import type { CST } from 'yaml';
import { MAX_JSON_DEPTH } from '../epp/json-values.js';

/** Lists and mappings may nest this deep (the document's top collection is level 1), as JSON may. */
export const MAX_YAML_DEPTH = MAX_JSON_DEPTH;

/** The offset of the first list or mapping at level `max + 1`, walking without recursion; else undefined. */
export function tooDeepAt(tokens: Iterable<CST.Token>, max: number = MAX_YAML_DEPTH): number | undefined {
  const pending: { token: CST.Token; depth: number }[] = [];
  for (const token of tokens) pending.push({ token, depth: 0 });
  // Depth-first, children pushed in reverse, so that the first too deep in the text is found first.
  pending.reverse();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { token, depth } = next;
    if (token.type === 'document') {
      if (token.value) pending.push({ token: token.value, depth });
      continue;
    }
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection')
      continue;
    const level = depth + 1;
    if (level > max) return token.offset;
    const children: CST.Token[] = [];
    for (const item of token.items) {
      if (item.key) children.push(item.key);
      if (item.value) children.push(item.value);
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push({ token: children[i]!, depth: level });
  }
  return undefined;
}
