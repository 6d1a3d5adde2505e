/**
 * Puppet's `puppet_quote`: a string quoted as `String(x)` prints it inside collections.
 */
function hasControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20) return true;
  return false;
}

/** Puppet's `puppet_quote`: single quotes unless the text has control characters. */
export function puppetQuote(s: string, forceDouble = false): string {
  if (forceDouble || hasControl(s)) return puppetDoubleQuote(s);
  let out = "'";
  let escaped = false;
  for (const ch of s) {
    if (escaped) {
      out += `\\${ch}`;
      escaped = false;
    } else if (ch === "'") out += "\\'";
    else if (ch === '\\') escaped = true;
    else out += ch;
  }
  if (escaped) out += '\\';
  return `${out}'`;
}

function puppetDoubleQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '"') out += '\\"';
    else if (ch === '$') out += '\\$';
    else if (ch === '\\') out += '\\\\';
    else if (code < 0x20) out += `\\u{${code.toString(16).toUpperCase()}}`;
    else out += ch;
  }
  return `${out}"`;
}
