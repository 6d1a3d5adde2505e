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
  /** 1-based column, counted in characters. */
  readonly column: number;
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
  return { line: lo + 1, column: offset - starts[lo]! + 1 };
}

/** The offset of a 1-based line and column (past the end: the text's end). */
export function offsetAt(source: string, line: number, column: number): number {
  const starts = lineStarts(source);
  if (line > starts.length) return source.length;
  return Math.min(starts[Math.max(line, 1) - 1]! + column - 1, source.length);
}
