/**
 * Ruby string helpers shared with the string functions: `strip`, `lstrip`, `rstrip`, `capitalize`.
 */
const RUBY_SPACE = ' \t\n\v\f\r\0';

/** Ruby's `String#strip`: ASCII whitespace and NUL only, not Unicode spaces. */
export function rubyStrip(s: string): string {
  return rubyRstrip(rubyLstrip(s));
}

export function rubyLstrip(s: string): string {
  let i = 0;
  while (i < s.length && RUBY_SPACE.includes(s[i]!)) i++;
  return s.slice(i);
}

export function rubyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && RUBY_SPACE.includes(s[end - 1]!)) end--;
  return s.slice(0, end);
}

/** Ruby's `String#capitalize`: first character upper (title) case, the rest lower case. */
export function rubyCapitalize(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const head = String.fromCodePoint(first);
  return titleCase(head) + s.slice(head.length).toLowerCase();
}

const TITLE_CASE: Record<string, string> = {
  Ǆ: 'ǅ',
  ǅ: 'ǅ',
  ǆ: 'ǅ',
  Ǉ: 'ǈ',
  ǈ: 'ǈ',
  ǉ: 'ǈ',
  Ǌ: 'ǋ',
  ǋ: 'ǋ',
  ǌ: 'ǋ',
};

function titleCase(ch: string): string {
  return TITLE_CASE[ch] ?? (ch === 'ß' ? 'Ss' : ch.toUpperCase());
}
