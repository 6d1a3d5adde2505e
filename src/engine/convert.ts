/**
 * `pantograph convert`: the one-time conversion of a PDK templates V1 `.sync.yml` into V2 (DESIGN 12).
 *
 * A V1 file is keyed by the files it configures (`Gemfile:`, `.gitignore:`, `spec/spec_helper.rb:`). Each
 * key goes to the template whose `template.json` lists it in `v1_files` (the first by name when several
 * do; searched in the project's sources, the default one for a V1 file): its settings move under the
 * template's name, several files of one template merging into one section. A per-file `unmanaged: true` or
 * `delete: true` becomes an entry of `pdk_template.unmanaged` or `delete`. A template is listed in
 * `templates` when one of its files is still managed and it is not always applied. Keys no template
 * replaces are kept as comments at the end, to be moved by hand.
 *
 * The edit works on the yaml Document, so comments, quoting and order stay as the user wrote them.
 * Nothing is written here but by `writeConversion`.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  type Document,
  isMap,
  isScalar,
  type Node,
  Pair,
  parseDocument,
  Scalar,
  YAMLMap,
  YAMLSeq,
} from 'yaml';
import { didYouMean } from '../shared/did-you-mean.js';
import {
  type Moved,
  placeConvertSettings,
  placeMoved,
  renderedByPdk,
  takeRules,
  takeUnknownSettings,
  unmanagedByDefault,
  V1_FLAGS,
  type V1FileState,
  type V1Template,
  v1Template,
} from './convert-rules.js';
import { EngineError, problem } from './errors.js';
import type { Position, PositionLookup, SourceSpec } from './model.js';
import type { ProjectOptions } from './project.js';
import { parseSyncConfig, SYNC_FILE } from './project-config.js';
import type { Problem } from './render-plan.js';
import { loadTemplate } from './repository.js';
import { listTemplates, resolveSources } from './sources/index.js';
import { jsonPointer, parseYamlData } from './yaml-data.js';

export interface ConvertedTemplate {
  readonly name: string;
  /** The V1 keys whose settings moved under it, in file order. */
  readonly files: readonly string[];
  /** Listed in `pdk_template.templates` (managed, and not always applied). */
  readonly listed: boolean;
}

export interface Conversion {
  /** Absolute path of `.sync.yml`. */
  readonly file: string;
  readonly before: string;
  /** The V2 text; undefined when the file is already V2 (nothing to do). */
  readonly after: string | undefined;
  readonly templates: readonly ConvertedTemplate[];
  readonly unmanaged: readonly string[];
  readonly delete: readonly string[];
  /** Always-applied templates excluded (`---name`) because the V1 file deletes all their files. */
  readonly excluded: readonly string[];
  /** V1 keys no template replaces (kept as comments). */
  readonly unconverted: readonly string[];
  /** V1 settings with no V2 equivalent, dropped (`file: setting`), by the templates' `v1_settings`. */
  readonly dropped: readonly string[];
  /** V1 settings moved to another name (`file: setting` -> `template.setting`). */
  readonly moved: readonly { readonly from: string; readonly to: string }[];
  /** Settings written so that the project renders what the V1 templates rendered (`v1_convert_settings`). */
  readonly convertSettings: readonly string[];
  /** Warnings, each at its place in the V1 file. */
  readonly problems: readonly Problem[];
}

export interface ConvertOptions extends Pick<ProjectOptions, 'offline' | 'trust' | 'env' | 'gitBinary'> {
  /** Template sources searched before `default`, written into `template_sources` (`--source`). */
  readonly sources?: readonly SourceSpec[];
}

/** Converts `<root>/.sync.yml` in memory. Throws EngineError for unreadable or unparsable input. */
export async function convertSyncFile(root: string, options: ConvertOptions = {}): Promise<Conversion> {
  const dir = resolve(root);
  const file = join(dir, SYNC_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new EngineError('SYNC_NOT_FOUND', `no ${SYNC_FILE} in ${dir}`, {
        hint: 'there is nothing to convert; `pantograph init` creates a V2 project',
      });
    }
    throw new EngineError('SYNC_READ', `cannot read ${file}: ${(e as Error).message}`);
  }
  const original = text;
  const duplicates = dropDuplicateKeys(text, file);
  text = duplicates.text;
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
  const positions = parsed.positions;
  if (parsed.data === undefined) {
    const first = parsed.problems.find((p) => p.severity === 'error');
    throw new EngineError(
      'SYNC_YAML',
      `${SYNC_FILE} is not valid YAML: ${first?.message ?? 'syntax error'}`,
      {
        position: first?.line ? { file, line: first.line, column: first.column ?? 1 } : undefined,
        problems: parsed.problems.filter((p) => p.severity === 'error'),
      },
    );
  }
  const data = parsed.data;
  const isMapping = typeof data === 'object' && data !== null && !Array.isArray(data);
  if (data !== null && !isMapping) {
    throw new EngineError('SYNC_NOT_MAPPING', `${SYNC_FILE} must be a mapping of keys to values`, {
      position: positions.positionOf(''),
    });
  }
  const unchanged = {
    file,
    before: original,
    templates: [],
    unmanaged: [],
    delete: [],
    excluded: [],
    unconverted: [],
    dropped: [],
    moved: [],
    convertSettings: [],
  };
  if (isMapping && Object.hasOwn(data, 'pdk_template'))
    return { ...unchanged, after: undefined, problems: [] };

  const extraSources = options.sources ?? [];
  const specs: SourceSpec[] = [...extraSources, { type: 'default', location: 'default' }];
  const sources = await resolveSources(specs, {
    root: dir,
    ...(options.offline !== undefined ? { offline: options.offline } : {}),
    ...(options.trust !== undefined ? { trust: options.trust } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
  });
  // V1 key -> the templates that replace it, by name.
  const claims = new Map<string, string[]>();
  const alwaysApply = new Set<string>();
  const v1Files = new Map<string, readonly string[]>();
  const v1 = new Map<string, V1Template>();
  for (const location of listTemplates(sources).templates) {
    const t = loadTemplate(location).template;
    if (!t) continue;
    if (t.manifest.always_apply) alwaysApply.add(t.name);
    v1Files.set(t.name, t.manifest.v1_files);
    v1.set(t.name, v1Template(t.manifest, t.schema));
    for (const key of t.manifest.v1_files) {
      claims.set(key, [...(claims.get(key) ?? []), t.name]);
    }
  }

  // A Document of yaml's own 1.1 schema: it prints booleans as written (`yes` stays `yes`).
  const doc: Document = parseDocument(text, { version: '1.1' });
  const top = isMap(doc.contents) ? (doc.contents as YAMLMap) : new YAMLMap();
  const header = leadingComment(top);
  const problems: Problem[] = [...duplicates.problems];
  const unmanaged: Scalar[] = [];
  const deleted: Scalar[] = [];
  const deletedKeys = new Map<string, string>();
  const unconverted: string[] = [];
  const unconvertedText: string[] = [];
  const groups = new Map<string, Group>();
  const order: (Pair | Group)[] = [];
  const dropped: string[] = [];
  const moved: Moved[] = [];
  const states = new Map<string, V1FileState>();

  for (const pair of top.items as Pair[]) {
    const keyNode = pair.key as Node | undefined;
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const pointer = jsonPointer([key ?? '']);
    if (key === undefined) {
      order.push(pair);
      continue;
    }
    const flags = takeFlags(key, pair.value, dropped);
    states.set(key, { unmanaged: flags.unmanaged, delete: flags.delete === true });
    const listItems: Scalar[] = [];
    if (flags.unmanaged) listItems.push(new Scalar(key));
    if (flags.delete) listItems.push(new Scalar(key));
    if (flags.unmanaged) unmanaged.push(listItems[0]!);
    if (flags.delete) {
      deleted.push(listItems.at(-1)!);
      deletedKeys.set(key, pointer);
    }
    const value = pair.value as Node | null;
    const empty = value === null || (isScalar(value) && value.value === null);
    const nothingLeft = empty || (isMap(value) && value.items.length === 0);
    if (listItems.length > 0 && nothingLeft) {
      // Nothing left of the section: its comments (above the key and inside) now describe the list entry.
      const comments = [keyNode?.commentBefore, ...flags.comments].filter((c) => c);
      if (comments.length > 0) listItems[0]!.commentBefore = comments.join('\n');
      continue;
    }
    const claim = claims.get(key);
    if (!claim && nothingLeft && flags.given) {
      // Only `unmanaged: false` (or true) of a file no template writes: there is nothing it could act on.
      dropped.push(`${key} (no template writes it)`);
      continue;
    }
    if (!claim || !(empty || isMap(value))) {
      if (claim) {
        problems.push(
          problem(
            'warning',
            'SYNC_SECTION',
            `the settings of '${key}' are not a mapping; kept as a comment`,
            positions.positionOf(pointer),
          ),
        );
      }
      if (!claim) problems.push(unclaimedKey(key, [...claims.keys()], positions.keyPositionOf(pointer)));
      unconverted.push(key);
      unconvertedText.push(pairText(text, pair));
      continue;
    }
    const [name, ...others] = claim as [string, ...string[]];
    if (others.length > 0) {
      problems.push(
        problem(
          'warning',
          'SYNC_SECTION',
          `'${key}' is replaced by several templates (${claim.join(', ')}); its settings go to '${name}'`,
          positions.keyPositionOf(pointer),
        ),
      );
    }
    const template = v1.get(name)!;
    if (isMap(value)) {
      takeRules(key, value, template.rules, dropped, moved);
      unconvertedText.push(...takeUnknownSettings(key, value, template, text, problems, positions));
    }
    let group = groups.get(name);
    if (!group) {
      group = { name, files: [], pairs: [], managed: false };
      groups.set(name, group);
      order.push(group);
    }
    group.files.push(key);
    group.pairs.push(pair);
  }

  // What PDK rendered: a template is applied when it rendered one of the files, as `v1_default` says.
  for (const group of groups.values()) group.managed = renderedByPdk(v1.get(group.name)!, states);
  const implied = [...v1.values()].filter(
    (t) => t.default === 'managed' && !groups.has(t.name) && !t.alwaysApply && renderedByPdk(t, states),
  );
  const listed = [...groups.values()].filter((g) => g.managed && !alwaysApply.has(g.name));
  for (const g of groups.values()) {
    if (!g.managed) continue;
    for (const file of unmanagedByDefault(v1.get(g.name)!, states)) unmanaged.push(new Scalar(file));
  }
  const excluded = deletions(deletedKeys, claims, v1Files, alwaysApply, groups, problems, positions);
  const pdk = new YAMLMap();
  pdk.items.push(new Pair(new Scalar('version'), new Scalar(2)));
  if (extraSources.length > 0) {
    const list = new YAMLSeq();
    for (const spec of extraSources) {
      const map = new YAMLMap();
      map.items.push(new Pair(new Scalar('type'), new Scalar(spec.type)));
      map.items.push(new Pair(new Scalar('location'), new Scalar(spec.location)));
      list.items.push(map);
    }
    list.items.push(new Scalar('default'));
    pdk.items.push(new Pair(new Scalar('template_sources'), list));
  }
  const names = [
    ...listed.map((g) => g.name),
    ...implied.map((t) => t.name),
    ...excluded.map((n) => `---${n}`),
  ];
  if (names.length > 0)
    pdk.items.push(new Pair(new Scalar('templates'), seq(names.map((n) => new Scalar(n)))));
  if (unmanaged.length > 0) pdk.items.push(new Pair(new Scalar('unmanaged'), seq(unmanaged)));
  if (deleted.length > 0) pdk.items.push(new Pair(new Scalar('delete'), seq(deleted)));
  const pdkKey = new Scalar('pdk_template');
  pdkKey.commentBefore = `${header ? `${header}\n\n` : ''} Converted from PDK templates V1 by \`pantograph convert\`.`;
  const items: Pair[] = [new Pair(pdkKey, pdk)];
  for (const entry of order) {
    items.push(
      entry instanceof Pair ? entry : groupPair(entry, text, positions.keyPositionOf.bind(positions)),
    );
  }
  placeMoved(items, moved, problems, positions);
  const applied = [...v1.values()].filter(
    (t) =>
      (t.alwaysApply && !excluded.includes(t.name)) ||
      listed.some((g) => g.name === t.name) ||
      implied.includes(t),
  );
  const convertSettings = placeConvertSettings(doc, items, applied);
  top.items = items;
  doc.contents = top;
  if (unconvertedText.length > 0) {
    const note = [
      " Not converted: no template of this project's sources replaces these V1 keys; move their settings by hand.",
      ...unconvertedText.flatMap((t) => t.split('\n')).map((l) => ` ${l}`),
    ].join('\n');
    doc.comment = doc.comment ? `${doc.comment}\n${note}` : note;
  }
  const after = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  parseSyncConfig(after, file, dir); // the result must load as V2; a failure here is a bug
  return {
    ...unchanged,
    after,
    templates: [...groups.values()].map((g) => ({
      name: g.name,
      files: g.files,
      listed: listed.includes(g),
    })),
    unmanaged: unmanaged.map((s) => String(s.value)),
    delete: deleted.map((s) => String(s.value)),
    excluded,
    unconverted,
    dropped,
    moved: moved.map((m) => ({ from: m.from, to: `${m.template}.${m.setting}` })),
    convertSettings,
    problems,
  };
}

/**
 * A top-level key given twice: Ruby's YAML (and so PDK) takes the last one, where yaml refuses the file.
 * The earlier ones are blanked out of the text (their lines kept, so that every position still points at
 * the file) and each is reported where it is.
 */
function dropDuplicateKeys(text: string, file: string): { text: string; problems: Problem[] } {
  const doc = parseDocument(text, { version: '1.1', uniqueKeys: false });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return { text, problems: [] };
  const pairs = (doc.contents as YAMLMap).items as Pair[];
  const last = new Map<string, Pair>();
  for (const pair of pairs) if (isScalar(pair.key)) last.set(String(pair.key.value), pair);
  const problems: Problem[] = [];
  let out = text;
  for (const pair of pairs) {
    if (!isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const winner = last.get(key)!;
    if (winner === pair) continue;
    const start = (pair.key as Node).range![0];
    const end = ((pair.value as Node | null)?.range ?? (pair.key as Node).range!)[2];
    const line = (offset: number) => text.slice(0, offset).split('\n').length;
    out = `${out.slice(0, start)}${out.slice(start, end).replace(/[^\n]/g, '')}${out.slice(end)}`;
    problems.push(
      problem(
        'warning',
        'SYNC_YAML',
        `'${key}' is given twice (lines ${line(start)} and ${line((winner.key as Node).range![0])}): as PDK reads the file, the last one wins, and this one is dropped`,
        { file, line: line(start), column: 1 },
        'merge the two into one if both were meant',
      ),
    );
  }
  return { text: out, problems };
}

/**
 * What V1 deletions mean in V2, where deleting a path a template writes is an error: an always-applied
 * template all of whose V1 files are deleted is excluded (`---name`); a template that would still write a
 * deleted file gets a warning.
 */
function deletions(
  deletedKeys: ReadonlyMap<string, string>,
  claims: ReadonlyMap<string, readonly string[]>,
  v1Files: ReadonlyMap<string, readonly string[]>,
  alwaysApply: ReadonlySet<string>,
  groups: ReadonlyMap<string, Group>,
  problems: Problem[],
  positions: PositionLookup,
): string[] {
  const excluded: string[] = [];
  for (const [key, pointer] of deletedKeys) {
    const name = claims.get(key)?.[0];
    if (name === undefined) continue;
    const allDeleted = (v1Files.get(name) ?? []).every((f) => deletedKeys.has(f));
    const applied = alwaysApply.has(name) || groups.get(name)?.managed === true;
    if (allDeleted && alwaysApply.has(name) && groups.get(name)?.managed !== true) {
      if (!excluded.includes(name)) excluded.push(name);
    } else if (applied) {
      problems.push(
        problem(
          'warning',
          'SYNC_SECTION',
          `'${key}' is deleted, but the template '${name}' writes it; V2 refuses to delete a path a template writes`,
          positions.keyPositionOf(pointer),
          `make it unmanaged instead, or exclude the template with '---${name}'`,
        ),
      );
    }
  }
  return excluded;
}

/** Writes the converted text in place, atomically, keeping the file's mode. */
export function writeConversion(conversion: Conversion): void {
  if (conversion.after === undefined) return;
  const tmp = `${conversion.file}.pantograph-tmp-${process.pid}`;
  writeFileSync(tmp, conversion.after, { mode: statSync(conversion.file).mode & 0o777 });
  renameSync(tmp, conversion.file);
}

interface Group {
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
function leadingComment(top: YAMLMap): string | undefined {
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
 */
function takeFlags(
  file: string,
  value: unknown,
  dropped: string[],
): { unmanaged?: boolean; delete?: boolean; given: boolean; comments: string[] } {
  const flags: { unmanaged?: boolean; delete?: boolean; given: boolean; comments: string[] } = {
    given: false,
    comments: [],
  };
  if (!isMap(value)) return flags;
  if (value.commentBefore) flags.comments.push(value.commentBefore);
  value.items = value.items.filter((p) => {
    const k = isScalar(p.key) ? p.key.value : undefined;
    if (!V1_FLAGS.includes(k as never) || !isScalar(p.value) || typeof p.value.value !== 'boolean')
      return true;
    if (k === 'manage_execute_permissions') dropped.push(`${file}: manage_execute_permissions`);
    else flags[k as 'unmanaged' | 'delete'] = p.value.value;
    flags.given = true;
    const comment = (p.key as Node).commentBefore;
    if (comment) flags.comments.push(comment);
    return false;
  });
  if (value.comment) flags.comments.push(value.comment);
  return flags;
}

/** A top-level key no template replaces: said where it is, with the file it likely meant. */
function unclaimedKey(key: string, files: readonly string[], position: Position): Problem {
  const meant = didYouMean(key, files);
  return problem(
    'warning',
    'CONVERT_UNKNOWN_FILE',
    meant !== undefined
      ? `'${key}' is no file of the templates: did you mean '${meant}'? (PDK ignored these settings)`
      : key === 'common'
        ? `'common' (settings every V1 file sees): no template of this project's sources reads them`
        : `no template of this project's sources writes '${key}', so its settings have nowhere to go (PDK ignored them too unless your V1 templates had the file)`,
    position,
    meant !== undefined
      ? `kept as a comment at the end; write them under '${meant}' and run \`pantograph convert\` on the V1 file again, or move them under the template by hand`
      : 'kept as a comment at the end of .sync.yml; delete it, or move the settings under a template by hand',
  );
}

/** The template's section: one file's mapping as it was, or several merged (a key set twice is an error). */
function groupPair(group: Group, text: string, keyPosition: (pointer: string) => Position): Pair {
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

function seq(items: Scalar[]): YAMLSeq {
  const s = new YAMLSeq();
  s.items.push(...items);
  return s;
}

/** The original text of a top-level pair, from its key to the end of its value, trailing blanks dropped. */
function pairText(text: string, pair: Pair): string {
  const start = (pair.key as Node).range?.[0] ?? 0;
  const value = pair.value as Node | null;
  const end = value?.range?.[1] ?? (pair.key as Node).range?.[1] ?? start;
  return text.slice(start, end).replace(/\s+$/, '');
}
