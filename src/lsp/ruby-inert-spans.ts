/**
 * The parts of a Ruby code fragment (an ERB tag's code) that run nothing: `#` comments and the text of
 * literals (strings, `%q()`/`%w[]`-style percent literals, heredocs, regular expressions, `?'` character
 * literals). A `@configs['x']` there is no read (erb-reads.ts). The `#{...}` interpolation of a literal
 * that interpolates (`"..."`, backticks, `%Q`/`%W`/`%I`/`%r`/`%x`/`%()`, `/.../`, a heredoc whose word is
 * not single-quoted) is code again, literals inside it included.
 *
 * A lexical scan, not Ruby's parser (which only a trusted repository may run). Where Ruby's own lexer
 * decides by what came before, so does this scan, by the character (or keyword) before: `/` and `%` open
 * a literal where a value is expected (`split(/,/)`, `x =~ /a/`, `when /a/`, `= %w[a b]`), and are
 * operators after a value (`a / b`, `"%d" % n`); `<<~EOS`, `<<-EOS` and `<<EOS` (an upper-case word, not
 * after a value) open heredocs, `a << b` appends. A guess the wrong way costs at most one tag's reads.
 * Interpolations nest at most MAX_NESTING deep; deeper literals are left as code. One pass, no
 * backtracking: a hostile file costs its length.
 */

/** A span of the code, `[start, end)`, that runs nothing. */
export type InertSpan = readonly [start: number, end: number];

/** Far beyond any template; keeps a hostile file from nesting the scan into the stack's limit. */
const MAX_NESTING = 64;

/** The inert spans of `code`, in order. */
export function rubyInertSpans(code: string): InertSpan[] {
  const scan = new RubyScan(code);
  scan.code(0, 0);
  return scan.spans;
}

/** A heredoc opened on the current line: its body starts after the line's end. */
interface Heredoc {
  readonly word: string;
  /** `<<~` and `<<-`: the closing word may be indented. */
  readonly indented: boolean;
  /** Not `<<~'EOS'`: the body's `#{...}` is code. */
  readonly interpolates: boolean;
}

/** The closing bracket of each bracket a percent literal may open with (it nests); other delimiters close themselves. */
const CLOSING: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}', '<': '>' };

/** Percent literals by their letter: whether they interpolate (`%q` does not, `%Q` does). */
const PERCENT_INTERPOLATES: Readonly<Record<string, boolean>> = {
  q: false,
  w: false,
  i: false,
  s: false,
  Q: true,
  W: true,
  I: true,
  r: true,
  x: true,
};

/** Words after which a value is expected, so a `/` or `%` there opens a literal (`when /a/`). */
const VALUE_KEYWORDS = new Set([
  'if',
  'elsif',
  'unless',
  'while',
  'until',
  'when',
  'case',
  'and',
  'or',
  'not',
  'return',
  'then',
  'else',
  'do',
  'in',
  'yield',
  'puts',
  'print',
]);

/** A heredoc's opener at the scan's position: `<<~`/`<<-` (indented) or `<<`, a word, maybe quoted. */
const HEREDOC_OPENER = /<<([~-]?)(?:(['"`])([^'"`\n]+)\2|([A-Za-z_]\w*))/y;

const isWordChar = (c: string | undefined): boolean => c !== undefined && /\w/.test(c);

class RubyScan {
  readonly spans: InertSpan[] = [];
  private pending: Heredoc[] = [];

  constructor(private readonly text: string) {}

  /**
   * Code from `from`: to the end, or (in an interpolation, `depth` > 0) to the `}` that closes it. Returns
   * the offset after that `}`, or the code's length.
   */
  code(from: number, depth: number): number {
    const text = this.text;
    const literals = depth < MAX_NESTING;
    let braces = 0;
    let i = from;
    while (i < text.length) {
      const c = text[i]!;
      if (c === '#') {
        const newline = text.indexOf('\n', i);
        const end = newline < 0 ? text.length : newline;
        this.spans.push([i, end]);
        i = end;
      } else if (c === '\n') {
        i = this.pending.length > 0 ? this.heredocBodies(i + 1, depth) : i + 1;
      } else if (c === "'") {
        i = this.delimited(i, i + 1, "'", false, depth);
      } else if ((c === '"' || c === '`') && literals) {
        i = this.delimited(i, i + 1, c, true, depth);
      } else if (c === '/' && literals && this.valueExpected(i, false)) {
        i = this.flags(this.delimited(i, i + 1, '/', true, depth));
      } else if (c === '%' && literals) {
        i = this.percent(i, depth);
      } else if (c === '<' && text[i + 1] === '<') {
        i = this.heredocOpener(i);
      } else if (c === '$') {
        // A global such as `$'` or `$/` (Ruby's match globals) opens no literal.
        i += 2;
      } else if (c === '?' && (text[i + 1] === "'" || text[i + 1] === '"') && !isWordChar(text[i + 2])) {
        this.spans.push([i, i + 2]);
        i += 2;
      } else if (c === '{') {
        braces++;
        i++;
      } else if (c === '}') {
        i++;
        if (depth > 0 && braces-- === 0) return i;
      } else {
        i++;
      }
    }
    return i;
  }

  /**
   * A literal opened at `open` whose text starts at `from` and ends at `close` (unescaped; an opening
   * bracket of its own kind nests): its text inert, its interpolations code when it `interpolates`.
   * Returns the offset after the closing character, or the length.
   */
  private delimited(open: number, from: number, close: string, interpolates: boolean, depth: number): number {
    const text = this.text;
    const opening =
      text[from - 1] !== close && CLOSING[text[from - 1]!] === close ? text[from - 1] : undefined;
    let nested = 0;
    let textStart = open;
    let i = from;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') {
        i += 2;
      } else if (c === close) {
        if (nested-- === 0) {
          this.spans.push([textStart, i + 1]);
          return i + 1;
        }
        i++;
      } else if (c === opening) {
        nested++;
        i++;
      } else if (interpolates && c === '#' && text[i + 1] === '{' && depth < MAX_NESTING) {
        this.spans.push([textStart, i + 2]);
        i = this.code(i + 2, depth + 1);
        textStart = i;
      } else {
        i++;
      }
    }
    this.spans.push([textStart, text.length]);
    return text.length;
  }

  /** A regular expression's flags after its closing `/` (`/a/i`): part of the literal, inert. */
  private flags(from: number): number {
    let i = from;
    while (/[a-z]/.test(this.text[i] ?? '')) i++;
    if (i > from) this.spans.push([from, i]);
    return i;
  }

  /** A `%` at `at`: a percent literal (`%w[a b]`, `%q(x)`, `%(x)`) where a value is expected, else modulo. */
  private percent(at: number, depth: number): number {
    const text = this.text;
    const letter = text[at + 1]!;
    const typed = letter in PERCENT_INTERPOLATES;
    const delimiter = typed ? text[at + 2] : letter;
    // Ruby takes any character but a letter, a digit or a blank as the delimiter.
    if (delimiter === undefined || /[\w\s]/.test(delimiter)) return at + 1;
    if (!this.valueExpected(at, typed)) return at + 1;
    const from = at + (typed ? 3 : 2);
    const close = CLOSING[delimiter] ?? delimiter;
    const end = this.delimited(at, from, close, typed ? PERCENT_INTERPOLATES[letter]! : true, depth);
    return letter === 'r' ? this.flags(end) : end;
  }

  /**
   * Whether a value is expected at `at` (then `/` and `%` open literals): at the start, after an operator
   * or an opening bracket, after a keyword such as `when`. After a word (a method's name) and a blank, a
   * typed percent literal (`puts %w[a]`) is one too, as Ruby reads it.
   */
  private valueExpected(at: number, typedPercent: boolean): boolean {
    const text = this.text;
    let i = at - 1;
    while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
    if (i < 0) return true;
    const before = text[i]!;
    if (!isWordChar(before)) return !/[)\]}'"`]/.test(before);
    if (typedPercent && i < at - 1) return true;
    let start = i;
    while (start > 0 && isWordChar(text[start - 1])) start--;
    // `x.when` is a method, not the keyword; `@if` a variable.
    if (start > 0 && /[.@$:]/.test(text[start - 1]!)) return false;
    return VALUE_KEYWORDS.has(text.slice(start, i + 1));
  }

  /**
   * `<<` at `at`: a heredoc's opener, noted for the line's end (the opener itself is code: `<<~EOS.strip`),
   * or the append operator.
   */
  private heredocOpener(at: number): number {
    HEREDOC_OPENER.lastIndex = at;
    const match = HEREDOC_OPENER.exec(this.text);
    if (!match) return at + 2;
    const [opener, mark, quote, quoted, bare] = match;
    // Without `~` or `-`, a heredoc's word is upper case (`<<EOS`, or quoted) and no value comes just before.
    if (!mark && !quote && !/^[A-Z_]/.test(bare!)) return at + 2;
    if (!mark && !this.valueExpectedBeforeAppend(at)) return at + 2;
    this.pending.push({ word: (quoted ?? bare)!, indented: mark !== '', interpolates: quote !== "'" });
    return at + opener.length;
  }

  /** Whether `<<` at `at` follows no value: `= <<EOS`, `(<<EOS`, `foo <<EOS` (a call), not `x<<EOS`. */
  private valueExpectedBeforeAppend(at: number): boolean {
    const before = this.text[at - 1];
    if (before === undefined || before === ' ' || before === '\t') return true;
    return !isWordChar(before) && !/[)\]}'"`]/.test(before);
  }

  /**
   * The bodies of the heredocs opened on the line that ended before `from`, one after the other: each to
   * the line holding only its word. Returns the offset after the last one's closing line.
   */
  private heredocBodies(from: number, depth: number): number {
    const heredocs = this.pending;
    this.pending = [];
    let i = from;
    for (const heredoc of heredocs) {
      const closing = this.closingLine(heredoc, i);
      if (!heredoc.interpolates) {
        this.spans.push([i, closing.end]);
        i = closing.end;
        continue;
      }
      let textStart = i;
      while (i < closing.start) {
        if (this.text[i] === '\\') {
          i += 2;
        } else if (this.text.startsWith('#{', i) && depth < MAX_NESTING) {
          this.spans.push([textStart, i + 2]);
          i = this.code(i + 2, depth + 1);
          textStart = i;
        } else {
          i++;
        }
      }
      // An interpolation that ran past the closing line took the rest with it.
      if (i > closing.start) return i;
      this.spans.push([textStart, closing.end]);
      i = closing.end;
    }
    return i;
  }

  /** The line (from `from` on) that closes a heredoc, `[start, end)` with its newline; else the text's end. */
  private closingLine(heredoc: Heredoc, from: number): { start: number; end: number } {
    const text = this.text;
    let start = from;
    while (start < text.length) {
      const newline = text.indexOf('\n', start);
      const end = newline < 0 ? text.length : newline;
      let word = start;
      if (heredoc.indented) while (text[word] === ' ' || text[word] === '\t') word++;
      const after = word + heredoc.word.length;
      if (
        text.startsWith(heredoc.word, word) &&
        (after === end || (after + 1 === end && text[after] === '\r'))
      ) {
        return { start, end: newline < 0 ? end : end + 1 };
      }
      start = end + 1;
    }
    return { start: text.length, end: text.length };
  }
}
