/**
 * The YAML side of `convert`: the Document's nodes it reads and writes (flags, the groups of moved
 * settings, the comments kept, the text of a pair) and which V1 files read a key. convert.ts decides
 * where each key goes; this module shapes the nodes.
 */
import { isMap, isScalar, isSeq, type Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { didYouMean } from '../shared/did-you-mean.js';
import { quotedKey } from '../shared/quoted-key.js';
import { keptText, type UnknownContext, V1_FLAGS, type V1Template } from './convert-rules.js';
import { EngineError, problem } from './errors.js';
import type { Position } from './model.js';
import type { Problem } from './render-plan.js';
import { jsonPointer } from './yaml-data.js';

/** By setting name, the V1 files whose template reads it from their own section (`v1_reads`, `v1_settings`). */
export function readersOf(templates: readonly V1Template[]): (key: string) => readonly string[] {
  const readers = new Map<string, string[]>();
  const add = (key: string, file: string) => {
    const list = readers.get(key) ?? [];
    if (!list.includes(file)) list.push(file);
    readers.set(key, list);
  };
  for (const t of templates) {
    for (const [file, keys] of Object.entries(t.reads)) for (const key of keys) add(key, file);
    for (const [key, rule] of Object.entries(t.rules))
      if (rule !== null) for (const f of t.files) add(key, f);
  }
  return (key) => readers.get(key) ?? [];
}

/**
 * The settings of V1 files PDK did not write (their template is not applied: unmanaged, deleted, or
 * unmanaged by default as pdk-templates' CI workflows): each had no effect, said at its place. Returns
 * their text, to keep as comments.
 */
export function notWritten(pairs: readonly Pair[], context: UnknownContext): string[] {
  const kept: string[] = [];
  for (const pair of pairs) {
    if (!isMap(pair.value)) continue;
    const file = String((pair.key as Scalar).value);
    for (const item of pair.value.items as Pair[]) {
      const key = isScalar(item.key)
        ? String(item.key.value)
        : context.text.slice(...((item.key as Node).range ?? [0, 0]));
      context.problems.push(
        problem(
          'warning',
          'CONVERT_NO_EFFECT',
          `'${file}: ${key}' had no effect in PDK: PDK did not write '${file}'`,
          context.positions.keyPositionOf(jsonPointer([file, key])),
          `kept as a comment at the end of .sync.yml; it takes effect only with the file managed (\`unmanaged: false\` under '${file}' in the V1 file, then \`pantograph convert\` again)`,
        ),
      );
      kept.push(keptText(file, item, context.text));
    }
  }
  return kept;
}

/** A section with no settings and no comment: left out of the V2 file. */
export function emptySection(pair: Pair): boolean {
  const value = pair.value;
  return (
    isMap(value) &&
    value.items.length === 0 &&
    !(pair.key as Scalar).commentBefore &&
    !value.commentBefore &&
    !value.comment
  );
}

/** A template's schema of one setting, when it has one. */
export function settingSchema(
  t: V1Template | undefined,
  setting: string,
): Readonly<Record<string, unknown>> | undefined {
  const schema = t && Object.hasOwn(t.properties, setting) ? t.properties[setting] : undefined;
  return typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : undefined;
}

export interface Group {
  readonly name: string;
  readonly files: string[];
  readonly pairs: Pair[];
  /** One of its files is neither unmanaged nor deleted. */
  managed: boolean;
}

/**
 * Takes the comment above the first key, which now moves below `pdk_template`: its last paragraph (after
 * a blank line) stays with that key; the rest is the file's header, returned to stay on top.
 */
export function leadingComment(top: YAMLMap): string | undefined {
  const firstKey = top.items[0]?.key as Node | undefined;
  const comment = top.commentBefore ?? firstKey?.commentBefore;
  if (!comment) return undefined;
  top.commentBefore = null;
  if (firstKey) firstKey.commentBefore = null;
  const split = comment.lastIndexOf('\n\n');
  if (split < 0 || !firstKey) return comment;
  firstKey.commentBefore = comment.slice(split + 2);
  return comment.slice(0, split);
}

/**
 * Removes the V1 flags (`unmanaged`, `delete`, `manage_execute_permissions`) from a file's settings: their
 * values (undefined when not given) and the comments that stood above them, which must not be lost.
 * `manage_execute_permissions` has no V2 equivalent (a template file's mode is kept): it is noted as dropped.
 *
 * A flag means what it meant to PDK, whose renderer tests it with Ruby's truthiness (`if
 * config['unmanaged']`), as the V1 run does: `nil` (`unmanaged: ~`) and `false` are false, anything else is
 * true, `'false'`, `0` and `"no"` too. A value other than `true`/`false` is taken so, with a warning at it.
 */
export function takeFlags(
  file: string,
  value: unknown,
  dropped: string[],
  report?: { readonly problems: Problem[]; readonly positionOf: (pointer: string) => Position },
): { unmanaged?: boolean; delete?: boolean; given: boolean; comments: string[] } {
  const flags: { unmanaged?: boolean; delete?: boolean; given: boolean; comments: string[] } = {
    given: false,
    comments: [],
  };
  if (!isMap(value)) return flags;
  if (value.commentBefore) flags.comments.push(value.commentBefore);
  value.items = value.items.filter((p) => {
    const k = isScalar(p.key) ? p.key.value : undefined;
    if (!V1_FLAGS.includes(k as never)) return true;
    const flag = k as (typeof V1_FLAGS)[number];
    const node = p.value as Node | null;
    const raw = node === null ? null : isScalar(node) ? node.value : node;
    if (flag === 'manage_execute_permissions') dropped.push(`${file}: manage_execute_permissions`);
    else if (raw !== null && raw !== undefined) {
      const truthy = raw !== false;
      flags[flag] = truthy;
      if (typeof raw !== 'boolean') report?.problems.push(flagValue(file, flag, raw, report.positionOf));
    } else report?.problems.push(flagValue(file, flag, null, report.positionOf));
    flags.given ||= raw !== null && raw !== undefined;
    const comment = (p.key as Node).commentBefore;
    if (comment) flags.comments.push(comment);
    return false;
  });
  if (value.comment) flags.comments.push(value.comment);
  return flags;
}

/** A V1 flag given something other than `true`/`false`: what PDK made of it, said at the value. */
function flagValue(
  file: string,
  flag: 'unmanaged' | 'delete',
  raw: unknown,
  positionOf: (pointer: string) => Position,
): Problem {
  const at = positionOf(jsonPointer([file, flag]));
  if (raw === null) {
    return problem(
      'warning',
      'CONVERT_FLAG_VALUE',
      `'${file}: ${flag}' is empty (nil to Ruby): PDK ignored it, and so does the conversion`,
      at,
      `write \`${flag}: true\` or \`${flag}: false\`, or remove it`,
    );
  }
  const shown =
    typeof raw === 'string'
      ? `the string '${raw}'`
      : typeof raw === 'number'
        ? `the number ${raw}`
        : typeof raw === 'object'
          ? isSeq(raw)
            ? 'a list'
            : isMap(raw)
              ? 'a mapping'
              : 'a value'
          : String(raw);
  const meaning = flag === 'unmanaged' ? `left '${file}' alone` : `deleted '${file}'`;
  const converted = flag === 'unmanaged' ? 'pdk_template.unmanaged' : 'pdk_template.delete';
  return problem(
    'warning',
    'CONVERT_FLAG_VALUE',
    `'${file}: ${flag}' is ${shown}, which is true to Ruby: PDK ${meaning}, so it goes to ${converted}`,
    at,
    `PDK tests the value as Ruby does (only false and nil are false); write \`${flag}: true\` to say so, or remove the key to have the file managed`,
  );
}

/** A top-level key no template replaces: said where it is, with the file it likely meant. */
export function unclaimedKey(key: string, files: readonly string[], position: Position): Problem {
  const meant = didYouMean(key, files);
  return problem(
    'warning',
    'CONVERT_UNKNOWN_FILE',
    meant !== undefined
      ? `'${key}' is no file of the templates: did you mean '${meant}'? (PDK ignored these settings)`
      : key === 'common'
        ? `'common' (settings every V1 file sees): no template of this project's sources reads them`
        : `no template of this project's sources writes ${quotedKey(key)}, so its settings have nowhere to go (PDK ignored them too unless your V1 templates had the file)`,
    position,
    meant !== undefined
      ? `kept as a comment at the end; write them under '${meant}' and run \`pantograph convert\` on the V1 file again, or move them under the template by hand`
      : 'kept as a comment at the end of .sync.yml; delete it, or move the settings under a template by hand',
  );
}

/** The template's section: one file's mapping as it was, or several merged (a key set twice is an error). */
export function groupPair(group: Group, text: string, keyPosition: (pointer: string) => Position): Pair {
  const firstKey = group.pairs[0]!.key as Node;
  const key = new Scalar(group.name);
  const comments = group.pairs
    .map((p) => (p.key as Node).commentBefore)
    .filter((c) => c !== undefined && c !== null);
  if (comments.length > 0) key.commentBefore = comments.join('\n');
  if (firstKey.spaceBefore) key.spaceBefore = true;
  const maps = group.pairs.map((p) => p.value).filter((v): v is YAMLMap => isMap(v) && v.items.length > 0);
  if (maps.length === 0) return new Pair(key, new YAMLMap());
  if (maps.length === 1) return new Pair(key, maps[0]);
  const merged = new YAMLMap();
  const seen = new Map<string, string>();
  group.pairs.forEach((p) => {
    const file = String((p.key as Scalar).value);
    if (!isMap(p.value)) return;
    for (const item of p.value.items as Pair[]) {
      const name = isScalar(item.key)
        ? String(item.key.value)
        : text.slice(...((item.key as Node).range ?? [0, 0]));
      const earlier = seen.get(name);
      if (earlier !== undefined) {
        throw new EngineError(
          'CONVERT_CONFLICT',
          `'${file}' and '${earlier}' both set '${name}', and both move to the template '${group.name}'`,
          {
            position: keyPosition(jsonPointer([file, name])),
            hint: `keep '${name}' in one of them (or rename it), then run \`pantograph convert\` again`,
          },
        );
      }
      seen.set(name, file);
      merged.items.push(item);
    }
  });
  return new Pair(key, merged);
}

export function seq(items: Scalar[]): YAMLSeq {
  const s = new YAMLSeq();
  s.items.push(...items);
  return s;
}

/** The original text of a top-level pair, from its key to the end of its value, trailing blanks dropped. */
export function pairText(text: string, pair: Pair): string {
  const start = (pair.key as Node).range?.[0] ?? 0;
  const value = pair.value as Node | null;
  const end = value?.range?.[1] ?? (pair.key as Node).range?.[1] ?? start;
  return text.slice(start, end).replace(/\s+$/, '');
}
