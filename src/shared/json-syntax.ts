/**
 * Where a text stops being JSON, and why, for the files read with `JSON.parse` (the lock, a fleet report):
 * its messages do not always say where (`Unexpected token 'x', "x{..." is not valid JSON`). Only the
 * syntax is checked, no data is built; a loop with a stack of open brackets, so that hostile nesting
 * cannot exhaust the call stack. It accepts exactly what `JSON.parse` accepts (a leading byte order mark
 * aside, which callers read as a space).
 */

export interface JsonSyntaxError {
  /** Where the mistake is, from the text's start. */
  readonly offset: number;
  /** What was expected and what was found there, e.g. `expected ',' or '}', found the end of the file`. */
  readonly message: string;
}

const WHITESPACE = /[ \t\n\r]*/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold them unescaped
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const LITERAL = /true|false|null/y;
const CLOSER = { '{': '}', '[': ']' } as const;

/** The first syntax mistake of `text`, or undefined when it is JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const open: ('{' | '[')[] = [];
  const skipSpace = () => {
    WHITESPACE.lastIndex = i;
    WHITESPACE.exec(text);
    i = WHITESPACE.lastIndex;
  };
  const match = (pattern: RegExp) => {
    pattern.lastIndex = i;
    if (!pattern.test(text)) return false;
    i = pattern.lastIndex;
    return true;
  };
  const found = () => (i < text.length ? `'${text[i]}'` : 'the end of the file');
  const mistake = (message: string): JsonSyntaxError => ({ offset: i, message });
  let state: 'value' | 'key' | 'after' = 'value';
  for (;;) {
    skipSpace();
    if (state === 'value') {
      const c = text[i];
      if (c === '{' || c === '[') {
        i++;
        skipSpace();
        if (text[i] === CLOSER[c]) i++;
        else {
          open.push(c);
          state = c === '{' ? 'key' : 'value';
          continue;
        }
      } else if (c === '"') {
        if (!match(STRING)) return mistake('a string not closed, or a control character or bad escape in it');
      } else if (!match(NUMBER) && !match(LITERAL)) {
        return mistake(`unexpected ${found()}`);
      }
      state = 'after';
    } else if (state === 'key') {
      if (!match(STRING)) return mistake('expected a property name in double quotes');
      skipSpace();
      if (text[i] !== ':') return mistake(`expected ':' after the property name, found ${found()}`);
      i++;
      state = 'value';
    } else {
      const inside = open.at(-1);
      if (inside === undefined) {
        return i < text.length ? mistake(`unexpected ${found()} after the JSON value`) : undefined;
      }
      if (text[i] === ',') {
        i++;
        state = inside === '{' ? 'key' : 'value';
      } else if (text[i] === CLOSER[inside]) {
        i++;
        open.pop();
      } else {
        return mistake(`expected ',' or '${CLOSER[inside]}', found ${found()}`);
      }
    }
  }
}
