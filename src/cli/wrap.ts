/**
 * Long prose lines (a drift summary, a conflict's error and hint) folded at the terminal's width, as
 * readable at 80 columns as git's advice. Only at spaces, and never inside a `code span` (a command to
 * copy) nor a path (a word); a word longer than the line stands alone on its line. Output that is not a
 * terminal is not folded (git, cargo): logs and scripts keep one line per message. `COLUMNS`, when set,
 * folds at that width wherever the output goes (as `ls` takes it). See docs/decisions.md.
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
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  let current = '';
  let length = 0;
  // The spaces before each word are kept as they are (a table's padding) unless the line breaks there.
  for (const { spaces, word } of wordsOf(line)) {
    const w = visibleLength(word);
    if (current.trim() !== '' && length + spaces.length + w > width) {
      lines.push(current);
      current = pad + word;
      length = indent + w;
    } else {
      current += spaces + word;
      length += spaces.length + w;
    }
  }
  lines.push(current);
  return lines.join('\n');
}

/** The line's words with the spaces before each; a `code span` (spaces and all) is one word. */
function wordsOf(text: string): { spaces: string; word: string }[] {
  const words: { spaces: string; word: string }[] = [];
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
