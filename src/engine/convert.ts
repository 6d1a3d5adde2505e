/**
 * `pantograph convert`: the one-time conversion of a PDK templates V1 `.sync.yml` into V2 (DESIGN 12).
 *
 * A V1 file is keyed by the files it configures (`Gemfile:`, `.gitignore:`, `spec/spec_helper.rb:`). Each
 * key goes to the template whose `template.json` lists it in `v1_files` (the first by name when several
 * do; searched in the project's sources, the default one for a V1 file): its settings move under the
 * template's name, several files of one template merging into one section. A per-file `unmanaged: true` or
 * `delete: true` becomes an entry of `pdk_template.unmanaged` or `delete`. A template is listed in
 * `templates` when one of its files is still managed and it is not always applied. Keys no template
 * replaces, and settings that had no effect in PDK (a key the file's ERB never read, `v1_reads`; any
 * setting of a file PDK did not write), are kept as comments at the end, each with a warning at its place.
 *
 * The edit works on the yaml Document, so comments, quoting and order stay as the user wrote them. The
 * result is judged as `validate` would judge it before it is returned (convert-check.ts): a value V2
 * refuses is an error at its place in the V1 file. Nothing is written here but by `writeConversion`.
 */
import { existsSync, renameSync, statSync, writeFileSync } from 'node:fs';
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
import { lineEndingOf, toLf, withLineEnding } from '../shared/line-endings.js';
import { coerceNumbers, convertedErrors } from './convert-check.js';
import {
  emptySection,
  type Group,
  groupPair,
  leadingComment,
  notWritten,
  pairText,
  readersOf,
  seq,
  settingSchema,
  takeFlags,
  unclaimedKey,
} from './convert-document.js';
import { dropDuplicateKeys, readV1Text } from './convert-input.js';
import {
  commonSettings,
  fileRenderedByPdk,
  keptText,
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
import { symbolWarnings } from './convert-symbols.js';
import { EngineError, problem } from './errors.js';
import type { PositionLookup, SourceSpec } from './model.js';
import type { ProjectOptions } from './project.js';
import { parseSyncConfig, SYNC_FILE } from './project-config.js';
import type { Problem } from './render-plan.js';
import { loadTemplate } from './repository.js';
import { listTemplates, resolveSources } from './sources/index.js';
import { syncFileTarget } from './sync-file.js';
import { aliasTargets, expandDanglingAliases, expandSectionAliases } from './yaml-aliases.js';
import { jsonPointer, parseYamlData } from './yaml-data.js';
import { expandMergeKeys } from './yaml-merge.js';

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
  /** True when there was no `.sync.yml` (a PDK module needs none): it is converted as `--- {}`. */
  readonly created: boolean;
  /** Quoted numbers written as numbers, as `template.setting: '3' -> 3` (their schema wants a number). */
  readonly coerced: readonly string[];
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
  const read = readV1Text(dir, file);
  // Converted with LF line ends (comments kept from the text would carry a `\r`), written back with the file's.
  const eol = lineEndingOf(read.text);
  let text = toLf(read.text);
  const original = read.created ? '' : read.text;
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
  const yamlErrors = parsed.problems.filter((p) => p.severity === 'error');
  if (yamlErrors.length > 0) {
    // Values the YAML reader refused (an alias to no anchor): printing the Document would fail on them.
    const first = yamlErrors[0]!;
    throw new EngineError('SYNC_YAML', `${SYNC_FILE}: ${first.message}`, {
      position: first.line ? { file, line: first.line, column: first.column ?? 1 } : undefined,
      hint: first.hint,
      problems: yamlErrors,
    });
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
    created: read.created,
    coerced: [],
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
  // `<<: *defaults` is a mapping's keys to Ruby too: they are converted as if written out.
  expandMergeKeys(doc);
  const top = isMap(doc.contents) ? (doc.contents as YAMLMap) : new YAMLMap();
  // `Gemfile: *gems` is the mapping `&gems` marks to Ruby: read as written out, as the merge keys above.
  const aliases = aliasTargets(doc);
  expandSectionAliases(top, aliases, V1_FLAGS);
  // `--- {}` (what PDK creates) is a flow mapping: the V2 file is written in block style all the same.
  top.flow = false;
  const header = leadingComment(top);
  const problems: Problem[] = [
    ...read.problems,
    ...duplicates.problems,
    ...symbolWarnings(doc, (offset) => positions.at(offset)),
  ];
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
  let common: { pair: Pair; map: YAMLMap; at: number } | undefined;

  const unknownContext = { text, problems, positions, readersOf: readersOf([...v1.values()]) };
  // Whether every V1 file of the sources says what it reads: then a key no file reads had no effect.
  const v1Known = [...v1.values()].every((t) => t.files.every((f) => Object.hasOwn(t.reads, f)));

  for (const pair of top.items as Pair[]) {
    const keyNode = pair.key as Node | undefined;
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const pointer = jsonPointer([key ?? '']);
    if (key === undefined) {
      order.push(pair);
      continue;
    }
    const flags = takeFlags(key, pair.value, dropped, {
      problems,
      positionOf: positions.positionOf.bind(positions),
    });
    // PDK's renderer tests `unmanaged` first: a file both unmanaged and deleted is left alone.
    const deletes = flags.delete === true && flags.unmanaged !== true;
    states.set(key, { unmanaged: flags.unmanaged, delete: deletes });
    const listItems: Scalar[] = [];
    // The entry carries the key's place in the V1 file: convert's check reports a problem with it there.
    if (flags.unmanaged || deletes) listItems.push(listEntry(key, keyNode));
    if (flags.unmanaged) unmanaged.push(listItems[0]!);
    if (deletes) {
      deleted.push(listItems[0]!);
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
    if (key === 'common' && nothingLeft) {
      // `common:` with nothing under it (pe_status_check's): no setting to carry or to warn about.
      dropped.push('common (empty)');
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
      if (key === 'common' && isMap(value)) {
        // Judged once what PDK applied is known (below): its text's place is kept here.
        common = { pair, map: value, at: unconvertedText.length };
        unconverted.push(key);
        unconvertedText.push('');
        continue;
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
      unconvertedText.push(...takeUnknownSettings(key, value, template, unknownContext));
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
  const kept = deletions(deletedKeys, claims, v1Files, alwaysApply, groups, problems, positions, dir);
  const excluded = kept.excluded;
  for (const key of kept.unmanaged) {
    const entry = deleted.findIndex((s) => s.value === key);
    if (entry >= 0) unmanaged.push(...deleted.splice(entry, 1));
  }
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
  const applied = [...v1.values()].filter(
    (t) =>
      (t.alwaysApply && !excluded.includes(t.name)) ||
      listed.some((g) => g.name === t.name) ||
      implied.includes(t),
  );
  const isApplied = (name: string) => applied.some((t) => t.name === name);
  if (common !== undefined) {
    const templateOf = (file: string) => {
      const name = claims.get(file)?.[0];
      return name === undefined ? undefined : v1.get(name);
    };
    const own = (file: string): unknown => (isMapping ? (data as Record<string, unknown>)[file] : undefined);
    const judged = commonSettings(common.map, {
      ...unknownContext,
      known: v1Known,
      templateOf,
      written: (file) => {
        const t = templateOf(file);
        return t !== undefined && isApplied(t.name) && fileRenderedByPdk(t, file, states);
      },
      fileSets: (file, key) => {
        const section = own(file);
        return typeof section === 'object' && section !== null && Object.hasOwn(section, key);
      },
    });
    problems.push(...judged.problems);
    moved.push(...judged.moved);
    if (judged.kept.length === common.map.items.length) {
      unconvertedText[common.at] = pairText(text, common.pair);
    } else if (judged.kept.length === 0) {
      unconvertedText.splice(common.at, 1);
      unconverted.splice(unconverted.indexOf('common'), 1);
    } else {
      unconvertedText[common.at] = [
        'common:',
        ...judged.kept.map((item) => keptText('common', item, text).split('\n').slice(1).join('\n')),
      ].join('\n');
    }
  }
  const items: Pair[] = [new Pair(pdkKey, pdk)];
  for (const entry of order) {
    if (entry instanceof Pair) items.push(entry);
    else if (!isApplied(entry.name)) {
      // PDK did not write its files: their settings had no effect, and V2 would warn about the section.
      unconvertedText.push(...notWritten(entry.pairs, unknownContext));
    } else {
      const section = groupPair(entry, text, positions.keyPositionOf.bind(positions));
      if (!emptySection(section)) items.push(section);
    }
  }
  placeMoved(items, moved, problems, positions);
  const convertSettings = placeConvertSettings(doc, items, applied);
  top.items = items;
  doc.contents = top;
  // An alias whose anchor went to a comment, or now comes after it, is written out where it is.
  expandDanglingAliases(doc, aliases);
  if (unconvertedText.length > 0) {
    const note = [
      ' Not converted (see the warnings of `pantograph convert`): V1 keys no template of this project takes, or',
      ' that had no effect in PDK; move what you want by hand.',
      ...unconvertedText.flatMap((t) => t.split('\n')).map((l) => ` ${l}`),
    ].join('\n');
    doc.comment = doc.comment ? `${doc.comment}\n${note}` : note;
  }
  const coerced = coerceNumbers(doc, (template, setting) => settingSchema(v1.get(template), setting));
  const lfAfter = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  parseSyncConfig(lfAfter, file, dir); // the result must load as V2; a failure here is a bug
  const after = withLineEnding(lfAfter, eol);
  const errors = await convertedErrors({
    dir,
    file,
    doc,
    after: lfAfter,
    v1At: (offset) => positions.at(offset),
    options,
  });
  if (errors.length > 0) {
    throw new EngineError(
      'CONVERT_INVALID',
      `the converted ${SYNC_FILE} would not be valid: ${errors[0]!.message}`,
      {
        problems: [...errors, ...problems],
      },
    );
  }
  return {
    ...unchanged,
    after,
    coerced,
    templates: [...groups.values()]
      .filter((g) => isApplied(g.name))
      .map((g) => ({
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
 * What V1 deletions mean in V2, where deleting a path a template writes is an error: an always-applied
 * template all of whose V1 files are deleted is excluded (`---name`); a deleted file that an applied template
 * still writes is made unmanaged, which V2 allows: PDK deleted it, so it is usually absent already, and
 * Pantograph then never writes it (said in a warning at the key, which tells to delete the file when it
 * is still there). Returns the excluded templates and the keys made unmanaged.
 */
function deletions(
  deletedKeys: ReadonlyMap<string, string>,
  claims: ReadonlyMap<string, readonly string[]>,
  v1Files: ReadonlyMap<string, readonly string[]>,
  alwaysApply: ReadonlySet<string>,
  groups: ReadonlyMap<string, Group>,
  problems: Problem[],
  positions: PositionLookup,
  dir: string,
): { excluded: string[]; unmanaged: string[] } {
  const excluded: string[] = [];
  const unmanaged: string[] = [];
  for (const [key, pointer] of deletedKeys) {
    const name = claims.get(key)?.[0];
    if (name === undefined) continue;
    const allDeleted = (v1Files.get(name) ?? []).every((f) => deletedKeys.has(f));
    const applied = alwaysApply.has(name) || groups.get(name)?.managed === true;
    if (allDeleted && alwaysApply.has(name) && groups.get(name)?.managed !== true) {
      if (!excluded.includes(name)) excluded.push(name);
    } else if (applied) {
      unmanaged.push(key);
      const present = existsSync(join(dir, key));
      problems.push(
        problem(
          'warning',
          'CONVERT_DELETE_PRODUCED',
          `'${key}' is deleted, but the template '${name}' writes it, and V2 refuses to delete a path a template writes: it goes to pdk_template.unmanaged, so that Pantograph never writes it${present ? `; ${key} is still in the project: delete it by hand` : ''}`,
          positions.keyPositionOf(pointer),
          `to have no ${name} files at all, delete each of its V1 files (${(v1Files.get(name) ?? []).join(', ')}) and convert again, or ${alwaysApply.has(name) ? `exclude the template with '---${name}' in` : `remove '${name}' from`} pdk_template.templates once converted`,
        ),
      );
    }
  }
  return { excluded, unmanaged };
}

/** An entry of `unmanaged`/`delete` for a V1 key, carrying the key's range in the V1 text. */
function listEntry(key: string, keyNode: Node | undefined): Scalar {
  const entry = new Scalar(key);
  if (keyNode?.range) entry.range = keyNode.range;
  return entry;
}

/** Writes the converted text in place, atomically, keeping the file's mode (a new file: 0644). */
export function writeConversion(conversion: Conversion): void {
  if (conversion.after === undefined) return;
  const file = syncFileTarget(conversion.file); // a shared .sync.yml behind a link stays shared
  const tmp = `${file}.pantograph-tmp-${process.pid}`;
  const mode = conversion.created ? 0o644 : statSync(file).mode & 0o777;
  writeFileSync(tmp, conversion.after, { mode });
  renameSync(tmp, file);
}
