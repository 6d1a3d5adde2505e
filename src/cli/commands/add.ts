/**
 * `pantograph add template <name>` and `pantograph add source filesystem|git location=... [ref=...]
 * [trusted=true]`: edit `.sync.yml` keeping its comments, order and formatting.
 *
 * The yaml Document gives the position of every node; an edit is a splice of the original text at those
 * positions, so nothing else of the file changes (re-printing the whole Document would respell `yes` as
 * `true` and reflow collections). Shapes the splices do not cover (a flow-style `pdk_template`, an empty
 * `templates:`) fall back to editing the Document and printing it. Either way the new text is parsed
 * again and checked to say exactly what was asked before it replaces the file (atomically).
 */
import { isSeq, type Node } from 'yaml';
import { EngineError } from '../../engine/errors.js';
import type { SourceSpec, SyncConfig } from '../../engine/model.js';
import { loadSyncConfig, parseSyncConfig, SYNC_FILE } from '../../engine/project-config.js';
import { credentialsWarning } from '../../engine/sources/credentials.js';
import { listTemplates, resolveSource, resolveSources } from '../../engine/sources/index.js';
import { writeSyncFile } from '../../engine/sync-file.js';
import {
  addTemplateText,
  applySplice,
  insertLines,
  itemPrefix,
  keyIndent,
  lineStart,
  nextLineStart,
  pairOf,
  pdkMap,
  scalar,
  viaDocument,
} from '../../engine/sync-text-edit.js';
import { didYouMeanHint } from '../../shared/did-you-mean.js';
import { sameLocation } from '../../shared/url-credentials.js';
import { UsageError } from '../errors.js';
import { type Io, sayErr } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  printProblems,
  projectDir,
  shortPath,
  sourceLabel,
} from '../report.js';

export async function addTemplate(
  io: Io,
  global: GlobalOptions,
  name: string,
  flags: EngineFlags,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const config = loadSyncConfig(projectDir(io, global));
    const file = shortPath(config.file, io.cwd);
    const sources = await resolveSources(config.sources, sourceOptions(config, flags));
    const names = listTemplates(sources).templates.map((t) => t.name);
    if (!names.includes(name)) {
      throw new UsageError(
        `unknown template '${name}': no template source of this project has it`,
        didYouMeanHint(name, names) ?? 'run `pantograph list` to see the available templates',
      );
    }
    if (config.templates.some((r) => r.name === name)) {
      io.out(`template '${name}' is already listed in ${file}; nothing to do\n`);
      return 0;
    }
    const excluded = config.excluded.find((r) => r.name === name);
    const text = addTemplateText(config, name);
    const expected = [...config.templates.map((r) => r.name), name];
    const next = parseSyncConfig(text, config.file, config.root);
    const got = next.templates.map((r) => r.name);
    if (!sameSet(got, expected) || next.excluded.some((r) => r.name === name)) {
      throw new Error(`editing ${config.file} did not give the expected templates: ${got.join(', ')}`);
    }
    writeSyncFile(config.file, text);
    io.out(`added template '${name}' to ${file}${excluded ? ` (replacing '---${name}')` : ''}\n`);
    return 0;
  });
}

export async function addSource(
  io: Io,
  global: GlobalOptions,
  type: string,
  settings: string[],
  flags: EngineFlags,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const spec = parseSourceArgs(type, settings);
    const config = loadSyncConfig(projectDir(io, global));
    const file = shortPath(config.file, io.cwd);
    const existing = config.sources.find(
      (s) => s.type === spec.type && sameLocation(s.location, spec.location),
    );
    if (existing) {
      if (existing.ref === spec.ref && (existing.trusted ?? false) === (spec.trusted ?? false)) {
        io.out(`source ${sourceLabel(spec)} is already listed in ${file}; nothing to do\n`);
        return 0;
      }
      const where = existing.position
        ? `${file}:${existing.position.line}:${existing.position.column}`
        : file;
      throw new UsageError(
        `source ${sourceLabel({ type: spec.type, location: spec.location })} is already listed at ${where} with other options`,
        'edit that entry instead of adding a second one',
      );
    }
    // Check it works before writing it down (a git source is fetched into the cache). With --offline, a git
    // source the cache has is checked there; one it lacks is written unchecked, and said so.
    let unchecked = false;
    try {
      await resolveSource(spec, 0, sourceOptions(config, flags));
    } catch (e) {
      if (!(e instanceof EngineError && e.code === 'GIT_OFFLINE')) throw e;
      unchecked = true;
    }
    const at = defaultIndex(config);
    const text = insertSource(config, spec, at);
    const next = parseSyncConfig(text, config.file, config.root);
    const expected = [...config.sources.map(specKey)];
    expected.splice(at, 0, specKey(spec));
    if (next.sources.map(specKey).join('\n') !== expected.join('\n')) {
      throw new Error(`editing ${config.file} did not give the expected sources`);
    }
    writeSyncFile(config.file, text);
    io.out(`added source ${sourceLabel(spec)} (${spec.type}) to ${file}\n`);
    if (unchecked) {
      sayErr(
        io,
        'note: not fetched or checked (--offline, and the cache does not have it): the next run without --offline fetches it, `pantograph validate` checks it\n',
      );
    }
    // Said now, where it was written, as every later run will say it.
    const position = next.positionOf(`/pdk_template/template_sources/${at}/location`);
    const warning = spec.type === 'git' ? credentialsWarning(spec.location, position, SYNC_FILE) : undefined;
    if (warning) printProblems(io, [warning]);
    return 0;
  });
}

function sourceOptions(config: SyncConfig, flags: EngineFlags) {
  return {
    root: config.root,
    ...(flags.offline === true ? { offline: true } : {}),
    ...(flags.trust === true ? { trust: true } : {}),
  };
}

const SOURCE_KEYS = ['location', 'ref', 'trusted'];

/** `location=... ref=... trusted=true` into a source spec, checked. */
function parseSourceArgs(type: string, settings: readonly string[]): SourceSpec {
  if (type !== 'filesystem' && type !== 'git') {
    throw new UsageError(`unknown source type '${type}'`, 'use `filesystem` or `git`');
  }
  const values = new Map<string, string>();
  for (const s of settings) {
    const eq = s.indexOf('=');
    const key = eq < 0 ? s : s.slice(0, eq);
    if (eq < 0 || !SOURCE_KEYS.includes(key)) {
      throw new UsageError(
        eq < 0 ? `expected key=value, got '${s}'` : `unknown source option '${key}'`,
        didYouMeanHint(key, SOURCE_KEYS) ?? `options: ${SOURCE_KEYS.map((k) => `${k}=...`).join(' ')}`,
      );
    }
    if (values.has(key)) throw new UsageError(`'${key}' is given twice`);
    values.set(key, s.slice(eq + 1));
  }
  const location = values.get('location');
  if (location === undefined || location === '') {
    throw new UsageError(
      'a source needs a location',
      `e.g. pantograph add source ${type} location=${type === 'git' ? 'https://example.com/templates.git' : '../templates'}`,
    );
  }
  const ref = values.get('ref');
  const trusted = values.get('trusted');
  if (type !== 'git' && ref !== undefined) throw new UsageError('ref applies to git sources only');
  if (ref === '') throw new UsageError('ref must not be empty', 'give a branch, tag or commit');
  if (trusted !== undefined && trusted !== 'true' && trusted !== 'false') {
    throw new UsageError(`trusted must be true or false, not '${trusted}'`);
  }
  return {
    type,
    location,
    ...(ref !== undefined ? { ref } : {}),
    ...(trusted !== undefined ? { trusted: trusted === 'true' } : {}),
  };
}

function specKey(s: SourceSpec): string {
  return JSON.stringify([s.type, s.location, s.ref ?? null, s.trusted ?? null]);
}

/** Where a new source goes: before `default` (explicit, or the implicit one), else last. */
function defaultIndex(config: SyncConfig): number {
  const i = config.sources.findIndex((s) => s.type === 'default');
  return i < 0 ? config.sources.length : i;
}

/** The new source as block mapping lines under `prefix` (`    - `), or as a flow mapping. */
function sourceLines(spec: SourceSpec, prefix: string): string[] {
  const fields = sourceFields(spec);
  const indent = ' '.repeat(prefix.length);
  return fields.map(([k, v], i) => `${i === 0 ? prefix : indent}${k}: ${v}`);
}

function sourceFlow(spec: SourceSpec): string {
  return `{ ${sourceFields(spec)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')} }`;
}

function sourceFields(spec: SourceSpec): [string, string][] {
  return [
    ['type', spec.type],
    ['location', scalar(spec.location)],
    ...(spec.ref !== undefined ? [['ref', scalar(spec.ref)] as [string, string]] : []),
    ...(spec.trusted !== undefined ? [['trusted', String(spec.trusted)] as [string, string]] : []),
  ];
}

/** Inserts `spec` into `template_sources` at `index`; creates the list (`[spec, default]`) when absent. */
function insertSource(config: SyncConfig, spec: SourceSpec, index: number): string {
  const { text, document: doc } = config;
  const pdk = pdkMap(doc);
  const pair = pdk && pairOf(pdk, 'template_sources');
  const seq = pair?.value;
  if (pdk && !pair) {
    const indent = keyIndent(text, pdk);
    const version = pairOf(pdk, 'version');
    const end = ((version?.value ?? version?.key) as Node | undefined)?.range?.[1];
    if (indent !== undefined && end !== undefined) {
      const prefix = `${indent}  - `;
      return insertLines(text, nextLineStart(text, end), [
        `${indent}template_sources:`,
        ...sourceLines(spec, prefix),
        `${prefix}default`,
      ]);
    }
  }
  if (isSeq(seq) && seq.range) {
    const before = seq.items[index] as Node | undefined;
    const last = seq.items.at(-1) as Node | undefined;
    if (seq.flow) {
      if (before?.range) return applySplice(text, { at: before.range[0], insert: `${sourceFlow(spec)}, ` });
      if (last?.range) return applySplice(text, { at: last.range[1], insert: `, ${sourceFlow(spec)}` });
    } else {
      const anchor = before ?? last;
      const prefix = anchor && itemPrefix(text, anchor);
      if (anchor?.range && prefix !== undefined) {
        const at = before
          ? commentsAbove(text, lineStart(text, anchor.range[0]))
          : nextLineStart(text, anchor.range[1]);
        return insertLines(text, at, sourceLines(spec, prefix));
      }
    }
  }
  return viaDocument(config, (d) => {
    const node = d.getIn(['pdk_template', 'template_sources'], true);
    const item = d.createNode({ ...sourceObject(spec) });
    if (isSeq(node)) node.items.splice(index, 0, item);
    else d.setIn(['pdk_template', 'template_sources'], d.createNode([sourceObject(spec), 'default']));
  });
}

function sourceObject(spec: SourceSpec): Record<string, unknown> {
  return {
    type: spec.type,
    location: spec.location,
    ...(spec.ref !== undefined ? { ref: spec.ref } : {}),
    ...(spec.trusted !== undefined ? { trusted: spec.trusted } : {}),
  };
}

/** The start of the comment lines right above the line at `start` (they describe that item). */
function commentsAbove(text: string, start: number): number {
  let at = start;
  while (at > 0) {
    const prev = lineStart(text, at - 1);
    if (!/^\s*#/.test(text.slice(prev, at - 1))) break;
    at = prev;
  }
  return at;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
