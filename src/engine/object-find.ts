/**
 * `pantograph new test <name>`: finding the class or defined type to write a unit test for. PDK asks
 * puppet-strings (which needs the module's bundle); we read the declarations in `manifests/**.pp` with a
 * small scanner that passes over comments, strings and heredocs, which is all it takes to see
 * `class a::b ...` and `define a::b ...` at any depth.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Declaration {
  readonly kind: 'class' | 'defined_type';
  readonly name: string;
  /** Project-relative path of the manifest that declares it. */
  readonly file: string;
}

/** The first class or defined type called `name` or `<module>::name`, in path order; undefined if none. */
export function findDeclaration(root: string, module: string, name: string): Declaration | undefined {
  const wanted = [name, `${module}::${name}`];
  const found = manifests(root).flatMap((file) =>
    declarations(readFileSync(join(root, file), 'utf8')).map((d) => ({ ...d, file })),
  );
  for (const w of wanted) {
    const hit = found.find((d) => d.name === w);
    if (hit) return hit;
  }
  return undefined;
}

/** `manifests/**.pp`, project-relative, sorted; symbolic links are not followed. */
function manifests(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (e.isFile() && e.name.endsWith('.pp')) out.push(path);
    }
  };
  walk('manifests');
  return out.sort();
}

const WORD = /[a-z_A-Z0-9]/;
const NAME = /^(?:::)?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*$/;

/** The names declared by `class NAME` and `define NAME` in Puppet source. */
export function declarations(source: string): { kind: 'class' | 'defined_type'; name: string }[] {
  const words = tokens(source);
  const out: { kind: 'class' | 'defined_type'; name: string }[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const keyword = words[i];
    const name = words[i + 1] as string;
    if ((keyword === 'class' || keyword === 'define') && NAME.test(name)) {
      out.push({ kind: keyword === 'class' ? 'class' : 'defined_type', name: name.replace(/^::/, '') });
    }
  }
  return out;
}

/**
 * The source's bare words (names, keywords) and punctuation, one string each, without comments, strings,
 * heredoc bodies and variables.
 */
function tokens(src: string): string[] {
  const out: string[] = [];
  let i = 0;
  const skipQuoted = (quote: string): void => {
    i++;
    while (i < src.length && src[i] !== quote) i += src[i] === '\\' ? 2 : 1;
    i++;
  };
  while (i < src.length) {
    const c = src[i] as string;
    if (c === '#') {
      const eol = src.indexOf('\n', i);
      i = eol < 0 ? src.length : eol;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === "'" || c === '"') {
      skipQuoted(c);
    } else if (c === '@' && src[i + 1] === '(') {
      i = skipHeredoc(src, i);
    } else if (c === '$') {
      i++;
      while (i < src.length && (WORD.test(src[i] as string) || src.startsWith('::', i))) i++;
    } else if (WORD.test(c) || (c === ':' && src[i + 1] === ':')) {
      const start = i;
      while (i < src.length && (WORD.test(src[i] as string) || src.startsWith('::', i))) {
        i += src.startsWith('::', i) ? 2 : 1;
      }
      out.push(src.slice(start, i));
    } else {
      if (!/\s/.test(c)) out.push(c);
      i++;
    }
  }
  return out;
}

/** Past a heredoc `@(TAG)`'s body: up to the line that ends it (the rest of the opener's line too). */
function skipHeredoc(src: string, at: number): number {
  const close = src.indexOf(')', at);
  const tag = /^@\(\s*"?([^":/)]+?)"?\s*(?::[^/)]*)?(?:\/[^)]*)?\)/.exec(src.slice(at, close + 1))?.[1];
  if (tag === undefined) return at + 2;
  const eol = src.indexOf('\n', close);
  if (eol < 0) return src.length;
  const end = new RegExp(
    `^[ \\t]*\\|?[ \\t]*-?[ \\t]*${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\t]*$`,
    'm',
  );
  const m = end.exec(src.slice(eol + 1));
  if (!m) return src.length;
  return eol + 1 + m.index + m[0].length;
}
