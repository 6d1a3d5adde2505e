/**
 * Where the cursor is in a YAML text: the keys above it, whether it is on a key or a list item, and the
 * word there. Block YAML is read by indentation: while the user types, the text is often no YAML document
 * (`gemfile:` then `  opt` with no colon yet), and indentation still tells the place. Inside a flow list
 * or mapping, which may run over lines, the yaml package's nodes tell it (yaml-flow.ts).
 */
import { FlowCollections } from './yaml-flow.js';

export interface YamlPlace {
  /** The keys of the mappings that contain the line, outermost first. */
  readonly parents: readonly string[];
  /** The key written on the cursor's line, when the cursor is on it (or the line has no colon yet). */
  readonly key: string | undefined;
  /** True when the line is a list item (`- value`). */
  readonly listItem: boolean;
  /** The scalar of a list item (`- gemfile`), when any. */
  readonly item: string | undefined;
  /** The span of the word under the cursor (the key or the item). */
  readonly start: number;
  readonly end: number;
}

const KEY_LINE = /^(\s*)([^\s#:'"-][^:#]*?|'[^']*'|"[^"]*")\s*:(?:\s|$)/;

export function yamlPlace(text: string, line: number, character: number): YamlPlace {
  const lines = text.split('\n');
  const current = (lines[line] ?? '').replace(/\r$/, '');
  const lineStart = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
  const indent = /^\s*/.exec(current)![0].length;
  const flows = new FlowCollections(text);
  const inFlow = flows.placeAt(lineStart + Math.min(character, current.length), lineStart + indent);
  if (inFlow) return inFlow;
  const dash = /^(\s*)-(\s+|$)/.exec(current);
  const listItem = dash !== null;
  const contentStart = dash ? dash[0].length : indent;
  // A quoted key may hold a colon (`':test':`): the key's colon comes after its closing quote.
  const quote = current[contentStart];
  const closing = quote === "'" || quote === '"' ? current.indexOf(quote, contentStart + 1) : -1;
  const colon = current.indexOf(':', closing < 0 ? contentStart : closing);
  const onKey = colon < 0 || character <= colon;
  let key: string | undefined;
  let item: string | undefined;
  let start = contentStart;
  let end = colon < 0 ? contentStart + /^[^\s#]*/.exec(current.slice(contentStart))![0].length : colon;
  if (onKey) key = unquote(current.slice(contentStart, end).trim());
  if (listItem && colon < 0) {
    item = key;
    key = undefined;
  }
  if (!onKey) {
    start = end = character;
  }
  const parents: string[] = [];
  // A list item may sit at its key's own indentation (`templates:` then `- a` below it).
  let limit = current.trim() === '' ? Math.min(character, current.length) : indent;
  if (listItem) limit = indent + 1;
  let at = lineStart;
  for (let i = line - 1; i >= 0 && limit > 0; i--) {
    const l = (lines[i] ?? '').replace(/\r$/, '');
    at -= (lines[i] ?? '').length + 1;
    if (l.trim() === '' || l.trim().startsWith('#')) continue;
    const lIndent = /^\s*/.exec(l)![0].length;
    if (flows.inside(at + lIndent)) continue; // a line a flow collection runs onto: its indentation means nothing
    if (lIndent >= limit) continue;
    if (/^\s*-(\s|$)/.test(l)) {
      limit = lIndent + 1; // an item of a list: its key comes further up
      continue;
    }
    const m = KEY_LINE.exec(l);
    if (m) parents.unshift(unquote(m[2]!.trim()));
    limit = lIndent;
  }
  return {
    parents,
    key: key === '' ? undefined : key,
    listItem,
    item: item === '' ? undefined : item,
    start: lineStart + start,
    end: lineStart + end,
  };
}

function unquote(text: string): string {
  return /^(['"]).*\1$/.test(text) ? text.slice(1, -1) : text;
}
