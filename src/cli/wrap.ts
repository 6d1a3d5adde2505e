/**
 * Long prose lines (a drift summary, a conflict's error and hint) folded at the terminal's width, as
 * readable at 80 columns as git's advice. Only at spaces, and never inside a `code span` (a command to
 * copy) nor a path (a word); a word longer than the line stands alone on its line. Output that is not a
 * terminal is not folded: logs and scripts keep one line per message. `COLUMNS`, when set, folds at that
 * width wherever the output goes (as git, cargo and `ls` take it). Lines are balanced (balancedBreaks).
 * See docs/decisions.md.
 */

/** The width to fold a stream's prose at, or undefined (not folded). */
export function foldWidth(
  isTerminal: boolean,
  terminalColumns: () => number | undefined,
): number | undefined {
  const fromEnv = Number(process.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return Math.max(fromEnv, MIN_WIDTH);
  // Asked only of a terminal: the stream's first touch costs start-up time (standard-output.ts).
  const columns = isTerminal ? terminalColumns() : undefined;
  if (columns === undefined || columns <= 0) return undefined;
  return Math.max(columns, MIN_WIDTH);
}

/** Narrower than this, folding makes a column of words: better to let the terminal wrap. */
const MIN_WIDTH = 40;

/**
 * Folds each line of `text` longer than `width`. Continuation lines are indented by `indent` (default:
 * the line's own indentation and two spaces; a `  hint: ` line, under the hint's first word).
 */
export function fold(text: string, width: number | undefined, indent?: number): string {
  if (width === undefined) return text;
  return text
    .split('\n')
    .map((line) => foldLine(line, width, indent ?? hangingIndent(line)))
    .join('\n');
}

function foldLine(line: string, width: number, indent: number): string {
  if (visibleLength(line) <= width) return line;
  const words = wordsOf(line);
  const breaks = balancedBreaks(words, width, indent);
  if (breaks.length === 0) return line;
  const pad = ' '.repeat(indent);
  let out = '';
  words.forEach(({ spaces, word }, i) => {
    // The spaces before each word are kept as they are (a table's padding) unless the line breaks there.
    out += breaks.includes(i) ? `\n${pad}${word}` : spaces + word;
  });
  return out;
}

/**
 * Where to break (the indexes of the words that begin a line): as few lines as filling each line allows,
 * and among those, the most even lines (least sum of squared shortfalls, the last line's too), so that a
 * message that only just overflows ends in half a line, not in one word alone. A break only comes before
 * a word at or beyond the continuation's indent: a table's names and paths (left of its last column),
 * a hint's label, stay on the first line. A word or span longer than the line stands alone on its line.
 */
function balancedBreaks(words: readonly Word[], width: number, indent: number): number[] {
  const n = words.length;
  const starts: number[] = [];
  let column = 0;
  for (const { spaces, word } of words) {
    starts.push(column + spaces.length);
    column += spaces.length + visibleLength(word);
  }
  const ends = words.map(({ word }, i) => starts[i]! + visibleLength(word));
  const breakable = (i: number) => i > 0 && starts[i]! >= indent;
  // breakableBefore[i]: how many of words 0..i-1 a line may begin with.
  const breakableBefore = [0];
  for (let i = 0; i < n; i++) breakableBefore.push(breakableBefore[i]! + (breakable(i) ? 1 : 0));
  /** The visible length of the line made of words from..to-1 (the first line keeps its own start). */
  const lengthOf = (from: number, to: number) =>
    from === 0 ? ends[to - 1]! : indent + ends[to - 1]! - starts[from]!;
  // best[i]: the fewest lines, then the least cost, laying out words 0..i-1; from[i]: its last line's start.
  const best: { lines: number; cost: number }[] = [{ lines: 0, cost: 0 }];
  const from: number[] = [0];
  for (let to = 1; to <= n; to++) {
    best.push({ lines: Number.POSITIVE_INFINITY, cost: 0 });
    from.push(0);
    for (let start = to - 1; start >= 0; start--) {
      if (start > 0 && !breakable(start)) continue;
      const length = lengthOf(start, to);
      // Too long: only as a line of one unbreakable run (nothing shorter is possible).
      const alone = breakableBefore[to] === breakableBefore[start + 1];
      if (length > width && !alone) break;
      const before = best[start]!;
      const slack = Math.max(width - length, 0);
      const candidate = { lines: before.lines + 1, cost: before.cost + slack * slack };
      const current = best[to]!;
      if (
        candidate.lines < current.lines ||
        (candidate.lines === current.lines && candidate.cost < current.cost)
      ) {
        best[to] = candidate;
        from[to] = start;
      }
    }
  }
  const breaks: number[] = [];
  for (let to = n; from[to]! > 0; to = from[to]!) breaks.unshift(from[to]!);
  return breaks;
}

interface Word {
  /** The spaces before the word, as in the line. */
  spaces: string;
  word: string;
}

/** The line's words with the spaces before each; a `code span` (spaces and all) is one word. */
function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let spaces = '';
  let word = '';
  let inCode = false;
  for (const ch of text) {
    if (ch === '`') inCode = !inCode;
    if (ch === ' ' && !inCode) {
      if (word !== '') {
        words.push({ spaces, word });
        spaces = '';
        word = '';
      }
      spaces += ch;
    } else word += ch;
  }
  if (word !== '') words.push({ spaces, word });
  return words;
}

/** `  hint: ...` continues under the hint's text; `error: ...` and other lines two spaces in. */
function hangingIndent(line: string): number {
  const label = /^( *)(hint|in|note): /.exec(line.replace(ESCAPES, ''));
  if (label) return label[0].length;
  return /^ */.exec(line)![0].length + 2;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: colours are escape sequences
const ESCAPES = /\x1b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(ESCAPES, '').length;
}
