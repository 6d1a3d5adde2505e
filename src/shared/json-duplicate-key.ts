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
 * Scans a text `JSON.parse` accepted (so the scan need not validate it) in one pass without recursion:
 * a lock of 10,000 files is scanned in milliseconds, and hostile nesting cannot exhaust the stack.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  // One frame per open object or array: the keys seen (objects only) and the key that holds it.
  const stack: { keys: Map<string, number> | undefined; name: string | undefined }[] = [];
  let pendingKey: string | undefined; // the last key of the innermost object, until its value opens
  let i = 0;
  while (i < text.length) {
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
        const key = JSON.parse(text.slice(start, end)) as string;
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
      if (c === 0x2c /* , */) pendingKey = undefined;
      i++;
    }
  }
  return undefined;
}

/** The offset just after the string that opens at `i`. */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c === 0x5c /* \ */) j += 2;
    else if (c === 0x22) return j + 1;
    else j++;
  }
  return j;
}

function nextNonSpace(text: string, i: number): number | undefined {
  let j = i;
  while (j < text.length && /\s/.test(text[j]!)) j++;
  return j < text.length ? text.charCodeAt(j) : undefined;
}
