/**
 * Puppet's validation warning for a hash literal that gives a key twice ("The key 'a' is declared more
 * than once"): its checker evaluates each key that is a literal (a string, a name, a number, a boolean,
 * undef, `default`, a regexp, an array or hash of those) and warns at the entry whose key is already
 * there, by Ruby's `eql?` (`1` and `1.0` differ, a hash's entries in any order), printing the key as Ruby's
 * `to_s` (`a`, `[1]`, `{"a"=>1}`). Other keys (a variable, `-1`, a type, a heredoc) are not checked.
 */
import type { Node } from '../ast.js';
import { formatFloat } from '../runtime/format/floats.js';

/** A literal key: `id` equal for keys `eql?` to each other, `text` as Puppet's warning prints it. */
interface LiteralKey {
  readonly id: string;
  readonly text: string;
  /** Ruby's `inspect`, for the key inside an array or hash. */
  readonly inspect: string;
}

/** The keys of `entries` given before in the same literal, each with the text Puppet's warning shows. */
export function duplicateLiteralKeys(
  entries: readonly { key: Node }[],
  source: string,
): { key: Node; text: string }[] {
  if (distinctStrings(entries)) return [];
  const seen = new Set<string>();
  const duplicates: { key: Node; text: string }[] = [];
  for (const { key } of entries) {
    const literal = literalKey(key, source);
    if (literal === undefined) continue;
    if (seen.has(literal.id)) duplicates.push({ key, text: literal.text });
    else seen.add(literal.id);
  }
  return duplicates;
}

/**
 * The common hash literal, keys all quoted strings or names, all different: answered without building
 * any key's text (a template's parse does this for every literal).
 */
function distinctStrings(entries: readonly { key: Node }[]): boolean {
  for (let i = 1; i < entries.length; i++) {
    const a = simpleString(entries[i]!.key);
    if (a === undefined) return false;
    for (let j = 0; j < i; j++) if (simpleString(entries[j]!.key) === a) return false;
  }
  return simpleString(entries[0]!.key) !== undefined;
}

function simpleString(node: Node): string | undefined {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  return node.type === 'BareWord' ? node.name : undefined;
}

function literalKey(node: Node, source: string): LiteralKey | undefined {
  switch (node.type) {
    case 'Literal': {
      const v = node.value;
      if (typeof v === 'string') return source[node.start] === '@' ? undefined : stringKey(v);
      if (typeof v === 'boolean') return { id: `b${v}`, text: String(v), inspect: String(v) };
      if (v === undefined) return { id: 'u', text: '', inspect: 'nil' };
      // The parser folds `-1` into a number; to Puppet it is a unary minus, no literal.
      if (v < 0) return undefined;
      if (typeof v === 'bigint') return { id: `i${v}`, text: String(v), inspect: String(v) };
      const text = formatFloat(v);
      return { id: `f${text}`, text, inspect: text };
    }
    case 'BareWord':
      return stringKey(node.name);
    case 'Interpolated': {
      const only = node.parts.length === 1 ? node.parts[0] : node.parts.length === 0 ? '' : undefined;
      return typeof only === 'string' && node.syntax === undefined && source[node.start] === '"'
        ? stringKey(only)
        : undefined;
    }
    case 'Default':
      return { id: 'd', text: 'default', inspect: ':default' };
    case 'Regex': {
      const text = `(?-mix:${node.source})`;
      return { id: `r${node.source}`, text, inspect: `/${node.source}/` };
    }
    case 'Array': {
      const elements: LiteralKey[] = [];
      for (const element of node.elements) {
        const key = literalKey(element, source);
        if (key === undefined) return undefined;
        elements.push(key);
      }
      const text = `[${elements.map((e) => e.inspect).join(', ')}]`;
      return { id: `a[${elements.map((e) => e.id).join(',')}]`, text, inspect: text };
    }
    case 'Hash': {
      // Later entries replace earlier ones, as the literal evaluator builds a Ruby Hash.
      const entries = new Map<string, { key: LiteralKey; value: LiteralKey }>();
      for (const entry of node.entries) {
        const key = literalKey(entry.key, source);
        const value = key && literalKey(entry.value, source);
        if (key === undefined || value === undefined) return undefined;
        const existing = entries.get(key.id);
        entries.set(key.id, { key: existing?.key ?? key, value });
      }
      const pairs = [...entries.values()];
      const text = `{${pairs.map((p) => `${p.key.inspect}=>${p.value.inspect}`).join(', ')}}`;
      // Ruby's Hash#eql? holds entries in any order.
      const ids = pairs.map((p) => `${p.key.id}=${p.value.id}`).sort();
      return { id: `h{${ids.join(',')}}`, text, inspect: text };
    }
    default:
      return undefined;
  }
}

function stringKey(value: string): LiteralKey {
  const inspect = JSON.stringify(value);
  return { id: `s${inspect}`, text: value, inspect };
}
