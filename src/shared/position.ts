/**
 * Offsets to line and column and back. Line starts are computed once per source text and cached, then
 * found by binary search, so turning many offsets of one file into positions (or positions into offsets)
 * stays cheap: an editor's diagnostics of a long file are thousands of them.
 */
const lineStartsCache = new WeakMap<object, number[]>();
const stringKeys = new Map<string, object>();

function lineStarts(source: string): number[] {
  let key = stringKeys.get(source);
  if (!key) {
    key = {};
    if (stringKeys.size > 64) stringKeys.clear();
    stringKeys.set(source, key);
  }
  let starts = lineStartsCache.get(key);
  if (!starts) {
    starts = [0];
    for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) starts.push(i + 1);
    lineStartsCache.set(key, starts);
  }
  return starts;
}

export interface LineColumn {
  /** 1-based line. */
  readonly line: number;
  /**
   * 1-based column, counted in characters (code points), as Puppet counts them: an emoji is one, where it is
   * two UTF-16 units. (The language server speaks UTF-16 positions: it converts offsets itself.)
   */
  readonly column: number;
}

function isPair(source: string, i: number): boolean {
  const code = source.charCodeAt(i);
  if (code < 0xd800 || code > 0xdbff) return false;
  const next = source.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff;
}

export function lineColumn(source: string, offset: number): LineColumn {
  const starts = lineStarts(source);
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  const start = starts[lo]!;
  let column = offset - start + 1;
  // One less per surrogate pair before the offset (or around it: inside a pair is the pair's column).
  const end = Math.min(offset, source.length);
  for (let i = start; i < end; i++) {
    if (isPair(source, i)) {
      column--;
      i++;
    }
  }
  return { line: lo + 1, column };
}

/** The offset of a 1-based line and column in characters (past the end: the text's end). */
export function offsetAt(source: string, line: number, column: number): number {
  const starts = lineStarts(source);
  if (line > starts.length) return source.length;
  let offset = starts[Math.max(line, 1) - 1]!;
  for (let k = 1; k < column && offset < source.length; k++) offset += isPair(source, offset) ? 2 : 1;
  return Math.min(offset, source.length);
}
