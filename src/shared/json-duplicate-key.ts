/**
 * The first key given twice in one object of a JSON text. `JSON.parse` keeps the last silently; a file
 * people merge by hand (the lock) must say so instead, at the second key, naming the first.
 */

export interface DuplicateKey {
  /** The key path from the top, e.g. `["files", "Gemfile"]`. */
  readonly path: readonly string[];
  /** Offsets of the first and the second occurrence's opening quote. */
  readonly first: number;
  readonly second: number;
}

/**
 * `text` is one `JSON.parse` accepted, and `parsed` what it gave. When the text has no more `"…":`
 * sequences than the parsed value has keys, no key can be given twice (each key in the text is such a
 * sequence, and a duplicate leaves one key fewer in the value): the common case costs one native regex
 * pass and a walk of the value. Otherwise the text is scanned to find where.
 */
export function findDuplicateKey(text: string, parsed: unknown): DuplicateKey | undefined {
  if (keySequences(text) <= keyCount(parsed)) return undefined;
  return scanForDuplicateKey(text);
}

/** How many times a quote is followed by a colon, with or without whitespace between. */
function keySequences(text: string): number {
  let count = 0;
  for (let at = text.indexOf('":'); at >= 0; at = text.indexOf('":', at + 2)) count++;
  return count + (text.match(/"\s+:/g)?.length ?? 0); // whitespace before a colon: rare, by hand
}

/** The keys of every object in a parsed JSON value (iterative: hostile nesting cannot exhaust the stack). */
function keyCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
    } else {
      for (const key in item) {
        count++;
        pending.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return count;
}

/**
 * Scans a text `JSON.parse` accepted (so the scan need not validate it) in one pass without recursion,
 * and hostile nesting cannot exhaust the stack.
 */
function scanForDuplicateKey(text: string): DuplicateKey | undefined {
  // One frame per open object or array: the keys seen (objects only) and the key that holds it.
  const stack: { keys: Map<string, number> | undefined; name: string | undefined }[] = [];
  let pendingKey: string | undefined; // the last key of the innermost object, until its value opens
  const structural = /[{}[\]",]/g; // the only characters the scan acts on: jump over the rest
  let i = 0;
  while (i < text.length) {
    structural.lastIndex = i;
    const next = structural.exec(text);
    if (next === null) break;
    i = next.index;
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      stack.push({ keys: c === 0x7b ? new Map() : undefined, name: pendingKey });
      pendingKey = undefined;
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      i++;
    } else if (c === 0x22 /* " */) {
      const start = i;
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      // A string is a key when it is in an object and a colon follows it.
      if (top?.keys !== undefined && nextNonSpace(text, end) === 0x3a /* : */) {
        // Most keys have no escape: their text is their value (JSON.parse per key doubled the scan).
        const raw = text.slice(start + 1, end - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : raw;
        const first = top.keys.get(key);
        if (first !== undefined) {
          const names = stack.map((f) => f.name).filter((n): n is string => n !== undefined);
          return { path: [...names, key], first, second: start };
        }
        top.keys.set(key, start);
        pendingKey = key;
      }
      i = end;
    } else {
      pendingKey = undefined; // a comma
      i++;
    }
  }
  return undefined;
}

/** The offset just after the string that opens at `i` (indexOf jumps over its text: locks are MBs). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const quote = text.indexOf('"', j);
    if (quote < 0) return text.length;
    // An escaped quote is preceded by an odd number of backslashes.
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    j = quote + 1;
  }
}

/** JSON's whitespace: space, tab, line feed, carriage return. */
function nextNonSpace(text: string, i: number): number | undefined {
  let j = i;
  for (; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return c;
  }
  return undefined;
}
