/**
 * Puppet's regular expressions (Ruby's Onigmo) as JavaScript RegExps: anchors, POSIX classes, inline
 * flags, extended syntax and named groups, as far as templates and stdlib's types use them.
 */
/**
 * `(?i:...)` around the whole pattern (stdlib's `Stdlib::HTTPUrl`): its flags, as a match whose `index` is
 * -1 to say that the closing parenthesis goes too. JavaScript (Node 20) has no scoped modifiers.
 */
function wholeGroupFlags(src: string): (RegExpExecArray & { index: number }) | null {
  const open = /^\(\?([imx]+):/.exec(src);
  if (!open || !src.endsWith(')')) return null;
  let depth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0 && i !== src.length - 1) return null;
  }
  open.index = -1;
  return open;
}

/**
 * Turns a Puppet (Ruby Onigmo) regexp source into a JavaScript RegExp. The differences that matter in
 * templates: `\A`, `\z`, `\Z` anchors, `(?i)`-style inline flags at the start, and POSIX classes.
 */
export function toJsRegExp(source: string, flags = ''): RegExp {
  let src = source;
  let f = flags;
  const inline = /^\(\?([imx]+)\)/.exec(src) ?? wholeGroupFlags(src);
  if (inline) {
    src = inline.index === -1 ? src.slice(inline[0].length, -1) : src.slice(inline[0].length);
    if (inline[1]!.includes('i') && !f.includes('i')) f += 'i';
    if (inline[1]!.includes('m') && !f.includes('s')) f += 's';
    if (inline[1]!.includes('x')) src = stripExtended(src);
  }
  src = src
    .replace(/\\A/g, '(?<![\\s\\S])')
    .replace(/\\z/g, '(?![\\s\\S])')
    .replace(/\\Z/g, '(?=\\n?(?![\\s\\S]))')
    .replace(/\\h/g, '[0-9a-fA-F]')
    .replace(/\[:alpha:\]/g, 'a-zA-Z')
    .replace(/\[:digit:\]/g, '0-9')
    .replace(/\[:alnum:\]/g, 'a-zA-Z0-9')
    .replace(/\[:space:\]/g, '\\s')
    .replace(/\[:upper:\]/g, 'A-Z')
    .replace(/\[:lower:\]/g, 'a-z')
    .replace(/\[:punct:\]/g, '!-\\/:-@\\[-`{-~')
    .replace(/\[:xdigit:\]/g, '0-9a-fA-F')
    .replace(/\[:word:\]/g, '\\w')
    .replace(/\[:blank:\]/g, ' \\t')
    .replace(/\[:cntrl:\]/g, '\\x00-\\x1f\\x7f')
    .replace(/\[:print:\]/g, '\\x20-\\x7e')
    .replace(/\[:graph:\]/g, '\\x21-\\x7e')
    // Onigmo's `{,n}` is `{0,n}`; JavaScript reads it as text.
    .replace(/(?<!\\)\{,(\d+)\}/g, '{0,$1}');
  if (NAMED_GROUP.test(src)) src = withoutUnnamedCaptures(src);
  if (SCOPED_IGNORE_CASE.test(src)) src = withScopedIgnoreCase(src);
  // Ruby's `^`/`$` are always line anchors.
  if (!f.includes('m')) f += 'm';
  return new RegExp(src, f);
}

/** Removes the whitespace and comments of an extended (`x`) regexp, outside character classes. */
export function stripExtended(source: string): string {
  return rewriteOutsideClasses(source, (c, i) => {
    if (c === '#') {
      const newline = source.indexOf('\n', i);
      return { text: '', end: newline < 0 ? source.length : newline };
    }
    return { text: /\s/.test(c) ? '' : c, end: i };
  });
}

/**
 * Rewrites a regexp source one character at a time outside escapes and character classes, which pass
 * through as they are: `rewrite` gives a character's text and the index of the last character it used.
 */
function rewriteOutsideClasses(
  source: string,
  rewrite: (c: string, i: number) => { readonly text: string; readonly end: number },
): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else {
      const r = rewrite(c, i);
      out += r.text;
      i = r.end;
    }
  }
  return out;
}

/** A named group `(?<name>` (not a lookbehind `(?<=` / `(?<!`). */
const NAMED_GROUP = /\(\?<[A-Za-z_]/;

/**
 * In Ruby, a regexp with named groups captures only those: its plain `(...)` groups do not count, so
 * `$1` is the first named group. JavaScript counts both; the plain ones become `(?:...)`. Escapes and
 * character classes are skipped, where a `(` is no group.
 */
function withoutUnnamedCaptures(src: string): string {
  return rewriteOutsideClasses(src, (c, i) => ({
    text: c === '(' && src[i + 1] !== '?' ? '(?:' : c,
    end: i,
  }));
}

/** A group with its own case-insensitivity, `(?i:...)`, somewhere inside a pattern. */
const SCOPED_IGNORE_CASE = /\(\?i:/;

/**
 * `(?i:...)` groups inside a pattern (stdlib's `Stdlib::Datasize`: `/^\d+(?i:[kmgt]b?|b)$/`), which
 * JavaScript (Node 20) cannot read: each becomes `(?:...)` with its letters matching either case (`k`
 * becomes `[kK]`; a class `[a-f]` gets `A-F` too). The group's end is found by counting parentheses
 * outside escapes and classes.
 */
function withScopedIgnoreCase(src: string): string {
  let out = '';
  let depth = 0; // groups open since the outermost (?i: started; 0 when outside any
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      out += src.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      if (c === ']' || depth === 0) {
        out += c;
        continue;
      }
      const item = classItem(src, i);
      out += item.text;
      i = item.last;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (src[i + 1] === '^') out += src[++i];
    } else if (src.startsWith('(?i:', i)) {
      out += '(?:';
      i += 3;
      depth++;
    } else if (c === '(' || c === ')') {
      if (depth > 0) depth += c === '(' ? 1 : -1;
      out += c;
    } else if (depth > 0 && /[a-zA-Z]/.test(c)) {
      out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    } else out += c;
  }
  return out;
}

/**
 * The character or range (`a-f`) of a class at `i`, its letters in both cases (`a-fA-F`), and the index of
 * its last character.
 */
function classItem(src: string, i: number): { readonly text: string; readonly last: number } {
  const isRange = src[i + 1] === '-' && src[i + 2] !== undefined && src[i + 2] !== ']' && src[i + 2] !== '\\';
  const text = isRange ? src.slice(i, i + 3) : src[i]!;
  const last = isRange ? i + 2 : i;
  const [from, to] = [text[0]!, text[text.length - 1]!];
  const lower = /[a-z]/.test(from) && /[a-z]/.test(to);
  const upper = /[A-Z]/.test(from) && /[A-Z]/.test(to);
  if (!lower && !upper) return { text, last };
  return { text: text + (lower ? text.toUpperCase() : text.toLowerCase()), last };
}
