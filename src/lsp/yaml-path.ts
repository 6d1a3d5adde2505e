/**
 * Where the cursor is in a YAML text, by indentation alone: the keys above it, whether it is on a key or
 * a list item, and the word there. A YAML parser needs a whole document; while the user types, the text
 * is often none (`gemfile:` then `  opt` with no colon yet), and indentation still tells the place.
 */

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
  const indent = /^\s*/.exec(current)![0].length;
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
  const lineStart = lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
  // In a flow list after the key (`templates: [ntp, mo]`, as `init` writes `templates: []`): an item of
  // the key's list, as one on a line of its own would be.
  const flow = !onKey && key === undefined ? flowItem(current, colon + 1, character) : undefined;
  const parents: string[] = [];
  // A list item may sit at its key's own indentation (`templates:` then `- a` below it).
  let limit = current.trim() === '' ? Math.min(character, current.length) : indent;
  if (listItem) limit = indent + 1;
  for (let i = line - 1; i >= 0 && limit > 0; i--) {
    const l = (lines[i] ?? '').replace(/\r$/, '');
    if (l.trim() === '' || l.trim().startsWith('#')) continue;
    const lIndent = /^\s*/.exec(l)![0].length;
    if (lIndent >= limit) continue;
    if (/^\s*-(\s|$)/.test(l)) {
      limit = lIndent + 1; // an item of a list: its key comes further up
      continue;
    }
    const m = KEY_LINE.exec(l);
    if (m) parents.unshift(unquote(m[2]!.trim()));
    limit = lIndent;
  }
  if (flow) {
    const own = unquote(current.slice(contentStart, colon).trim());
    return {
      parents: [...parents, own],
      key: undefined,
      listItem: true,
      item: flow.item === '' ? undefined : flow.item,
      start: lineStart + flow.start,
      end: lineStart + flow.end,
    };
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

/** The item of a one-line flow list (`[a, b]`) starting after `from`, at `character`, if it is in one. */
function flowItem(
  line: string,
  from: number,
  character: number,
): { item: string; start: number; end: number } | undefined {
  const open = /^\s*\[/.exec(line.slice(from));
  if (!open) return undefined;
  const first = from + open[0].length;
  const close = line.indexOf(']', first);
  if (character < first || (close >= 0 && character > close)) return undefined;
  const stop = (c: string | undefined) => c === undefined || c === ',' || c === '[' || c === ']';
  let start = character;
  while (start > first && !stop(line[start - 1])) start--;
  let end = character;
  while (end < line.length && !stop(line[end])) end++;
  const raw = line.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const word = raw.trim();
  return { item: unquote(word), start: start + lead, end: start + lead + word.length };
}

function unquote(text: string): string {
  return /^(['"]).*\1$/.test(text) ? text.slice(1, -1) : text;
}
