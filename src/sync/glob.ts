/**
 * Glob matching for `unmanaged`, `delete` and `post` patterns: `*` and `?` stay inside one path segment,
 * `**` spans segments, `[abc]` / `[!abc]` are classes and `{a,b}` alternatives. A pattern that names a
 * directory also matches everything under it (`unmanaged: [spec/fixtures]`).
 */

const cache = new Map<string, RegExp>();

export function hasGlobChars(pattern: string): boolean {
  return /[*?[{]/.test(pattern);
}

/** Translates one glob into an anchored regular expression. */
export function globToRegExp(pattern: string): RegExp {
  const cached = cache.get(pattern);
  if (cached) return cached;
  let out = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        // `**/` matches zero or more whole segments; a trailing `**` matches the rest.
        const slash = pattern[i + 2] === '/';
        out += slash ? '(?:[^/]*/)*' : '.*';
        i += slash ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
      } else {
        let body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        out += `[${body}]`;
        i = end;
      }
    } else if (c === '{') {
      braces++;
      out += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      out += ')';
    } else if (c === ',' && braces > 0) {
      out += '|';
    } else {
      out += c.replace(/[.+^$()|\\\]{}]/g, '\\$&');
    }
  }
  const re = new RegExp(`^${out}$`);
  cache.set(pattern, re);
  return re;
}

/** True when `path` or one of its parent directories matches `pattern`. */
export function matchesPath(pattern: string, path: string): boolean {
  const clean = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!hasGlobChars(clean)) return path === clean || path.startsWith(`${clean}/`);
  const re = globToRegExp(clean);
  if (re.test(path)) return true;
  for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
    if (re.test(path.slice(0, i))) return true;
  }
  return false;
}

export function matchesAny(patterns: readonly string[], path: string): boolean {
  for (const p of patterns) if (matchesPath(p, path)) return true;
  return false;
}

/** Matches a `post` glob against a file's basename. */
export function matchesBasename(pattern: string, path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  return globToRegExp(pattern).test(base);
}
