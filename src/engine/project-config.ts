/**
 * The project's `.sync.yml` (DESIGN section 4): YAML 1.1 read as Psych reads it, every value's position
 * kept, `pdk_template` checked against `schemas/sync.schema.json`, every other top-level key a template's
 * settings section. Terminating problems (unreadable, unparsable, V1, unsupported version) throw an
 * EngineError; everything else is collected into `problems`, all at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { placeholderProblem } from '../shared/post-command.js';
import { SYNC_FILE } from '../shared/project-files.js';
import { decodeUtf8 } from '../shared/text-file.js';
import { EngineError, problem } from './errors.js';
import { shippedSchema, violationProblems } from './json-schema.js';
import { missingSyncHint } from './missing-sync-hint.js';
import {
  type Data,
  type Position,
  ReplaceValue,
  type SourceSpec,
  type SyncConfig,
  type SyncData,
  type SyncDataMap,
  type TemplateRef,
} from './model.js';
import type { PostCommand, Problem } from './render-plan.js';
import { credentialsWarning } from './sources/credentials.js';
import { danglingLinkError } from './sync-file.js';
import { type SyncOrigin, withOrigins } from './sync-origins.js';
import { jsonPointer, parsePointer, parseYamlData, setKey } from './yaml-data.js';

export { SYNC_FILE };
export const SUPPORTED_VERSIONS: readonly number[] = [2];

/** Reads `<root>/.sync.yml`. Throws EngineError for terminating problems; see `parseSyncConfig`. */
export function loadSyncConfig(root: string, origins: readonly SyncOrigin[] = []): SyncConfig {
  const dir = resolve(root);
  const file = join(dir, SYNC_FILE);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A mistyped `-C` names no directory at all: "no .sync.yml in it" and "run init" would mislead.
    if (code === 'ENOENT' && !existsSync(dir)) {
      throw new EngineError('SYNC_NOT_FOUND', `${dir} does not exist`, {
        hint: 'check the project directory given (-C DIR); `pantograph init DIR` creates a new project there',
      });
    }
    // A link to a shared file that is gone: "no .sync.yml here" and "run init" would mislead.
    const dangling = code === 'ENOENT' ? danglingLinkError(file) : undefined;
    if (dangling) throw dangling;
    if (code === 'ENOENT') {
      throw new EngineError('SYNC_NOT_FOUND', `no ${SYNC_FILE} in ${dir}`, {
        hint: missingSyncHint(dir),
      });
    }
    throw new EngineError('SYNC_READ', `cannot read ${file}: ${(e as Error).message}`);
  }
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) {
    const { message, line, column } = decoded.problem;
    throw new EngineError('SYNC_ENCODING', `${SYNC_FILE} ${message}`, {
      position: { file, line, column },
      hint: 'save it as UTF-8 (most editors offer the encoding when saving)',
    });
  }
  return parseSyncConfig(decoded.text, file, dir, origins);
}

/**
 * Parses `.sync.yml` text; `file` labels positions, `root` anchors relative paths. Values another file
 * decides (`origins`: the fleet's template sources and settings) are positioned in that file.
 */
export function parseSyncConfig(
  text: string,
  file: string,
  root: string = dirname(file),
  origins: readonly SyncOrigin[] = [],
): SyncConfig {
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
  const { document } = parsed;
  const positions = withOrigins(parsed.positions, origins);
  const at = (pointer: string) => positions.positionOf(pointer);
  if (parsed.data === undefined) {
    const first = parsed.problems.find((p) => p.severity === 'error');
    throw new EngineError(
      'SYNC_YAML',
      `${SYNC_FILE} is not valid YAML: ${first?.message ?? 'syntax error'}`,
      {
        position: first?.line ? { file, line: first.line, column: first.column ?? 1 } : undefined,
        problems: parsed.problems,
      },
    );
  }
  const data = parsed.data;
  if (data !== null && !isMapping(data)) {
    throw new EngineError('SYNC_NOT_MAPPING', `${SYNC_FILE} must be a mapping of keys to values`, {
      position: at(''),
    });
  }
  const top: SyncDataMap = data ?? {};
  if (!Object.hasOwn(top, 'pdk_template')) {
    throw new EngineError(
      'SYNC_V1',
      `${SYNC_FILE} has no \`pdk_template\` key: it is a PDK templates V1 file`,
      {
        position: at(''),
        hint: 'run `pantograph convert` to convert it to V2 once',
      },
    );
  }
  const pdk = unwrap(top.pdk_template);
  checkVersion(pdk, at);
  const problems: Problem[] = [...parsed.problems];
  const schemaProblems = violationProblems(
    shippedSchema('sync').validate(top),
    positions,
    'SYNC_INVALID',
    label,
  );
  for (const p of schemaProblems) {
    problems.push(p.message.startsWith('unknown key') ? { ...p, code: 'SYNC_UNKNOWN_KEY' } : p);
  }
  const config = pdk as SyncDataMap;
  const templates = readTemplates(config.templates, at, problems);
  const settings: Record<string, SyncDataMap> = {};
  for (const [key, value] of Object.entries(top)) {
    if (key === 'pdk_template') continue;
    if (value instanceof ReplaceValue) {
      problems.push(
        problem(
          'error',
          'SYNC_SECTION',
          `\`!replace\` cannot replace the whole section '${key}'`,
          at(`/${key}`),
          'tag the settings inside it instead',
        ),
      );
    } else if (value === null) setKey(settings, key, {});
    else if (isMapping(value)) setKey(settings, key, value);
  }
  const sources = readSources(config.template_sources, at, problems);
  const unmanaged = readPaths(config.unmanaged, 'unmanaged', at, problems).paths;
  const deleted = readPaths(config.delete, 'delete', at, problems);
  const post = readPost(config.post, at, problems);
  // In file order, as a reader goes through the file.
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return {
    file,
    root,
    version: 2,
    sources,
    templates: templates.listed,
    excluded: templates.excluded,
    sharedSettings: isMapping(config.shared_settings) ? config.shared_settings : {},
    unmanaged,
    delete: deleted.paths,
    deletePointers: deleted.pointers,
    purge: config.purge === true,
    post,
    settings,
    positions,
    positionOf: at,
    document,
    text,
    problems,
  };
}

/** `pdk_template.version`: required, an integer, supported. Each failure is terminating. */
function checkVersion(pdk: SyncData | undefined, at: (p: string) => Position): void {
  const supported = `this Pantograph supports version ${SUPPORTED_VERSIONS.join(', ')}`;
  if (!isMapping(pdk)) {
    throw new EngineError('SYNC_VERSION', '`pdk_template` must be a mapping with a `version`', {
      position: at('/pdk_template'),
      hint: 'start it with `version: 2`',
    });
  }
  const version = unwrap(pdk.version);
  if (version === undefined || version === null) {
    throw new EngineError('SYNC_VERSION', '`pdk_template.version` is required', {
      position: at('/pdk_template'),
      hint: `add \`version: 2\` (${supported})`,
    });
  }
  if (typeof version !== 'bigint') {
    throw new EngineError(
      'SYNC_VERSION',
      `\`pdk_template.version\` must be an integer, not ${show(version)}`,
      {
        position: at('/pdk_template/version'),
        hint: supported,
      },
    );
  }
  if (!SUPPORTED_VERSIONS.includes(Number(version))) {
    throw new EngineError(
      'SYNC_VERSION',
      `\`pdk_template.version\` ${version} is not supported; ${supported}`,
      {
        position: at('/pdk_template/version'),
        // Every error says what to do: a version above ours is a newer Pantograph's file.
        hint:
          Number(version) > Math.max(...SUPPORTED_VERSIONS)
            ? `a newer Pantograph wrote this file: upgrade Pantograph, or write \`version: ${Math.max(...SUPPORTED_VERSIONS)}\` if it was a typo`
            : `write \`version: ${Math.max(...SUPPORTED_VERSIONS)}\``,
      },
    );
  }
}

function readTemplates(
  value: SyncData | undefined,
  at: (p: string) => Position,
  problems: Problem[],
): { listed: TemplateRef[]; excluded: TemplateRef[] } {
  const listed: TemplateRef[] = [];
  const excluded: TemplateRef[] = [];
  const seen = new Set<string>();
  const items = unwrap(value);
  if (!Array.isArray(items)) return { listed, excluded };
  items.forEach((item, i) => {
    if (typeof item !== 'string') return;
    const pointer = `/pdk_template/templates/${i}`;
    const exclude = item.startsWith('---');
    const name = exclude ? item.slice(3) : item;
    if (name === '') return; // the schema reports it
    if (seen.has(name)) {
      problems.push(
        problem('warning', 'SYNC_DUPLICATE_TEMPLATE', `template '${name}' is named twice`, at(pointer)),
      );
      return;
    }
    seen.add(name);
    (exclude ? excluded : listed).push({ name, pointer, position: at(pointer) });
  });
  return { listed, excluded };
}

function readSources(
  value: SyncData | undefined,
  at: (p: string) => Position,
  problems: Problem[],
): SourceSpec[] {
  const items = unwrap(value);
  if (items === undefined || items === null) return [{ type: 'default', location: 'default' }];
  if (!Array.isArray(items)) return [];
  const specs: SourceSpec[] = [];
  items.forEach((raw, i) => {
    const pointer = `/pdk_template/template_sources/${i}`;
    const position = at(pointer);
    const item = unwrap(raw);
    if (item === 'default') {
      specs.push({ type: 'default', location: 'default', position });
      return;
    }
    if (!isMapping(item)) return; // the schema reports it
    const { type, location, ref, trusted } = item;
    if (type === 'default') {
      specs.push({ type: 'default', location: 'default', position });
      return;
    }
    if ((type !== 'git' && type !== 'filesystem') || typeof location !== 'string' || location === '') return;
    if (ref !== undefined && type !== 'git') {
      problems.push(
        problem('error', 'SYNC_INVALID', '`ref` applies to git sources only', at(`${pointer}/ref`)),
      );
    }
    if (type === 'git') {
      const warning = credentialsWarning(location, at(`${pointer}/location`), SYNC_FILE);
      if (warning) problems.push(warning);
    }
    const spec: SourceSpec = {
      type,
      location,
      ...(typeof ref === 'string' && type === 'git' ? { ref } : {}),
      ...(typeof trusted === 'boolean' ? { trusted } : {}),
      position,
    };
    specs.push(spec);
  });
  return specs;
}

/** `unmanaged`/`delete`: project-relative paths or globs; absolute paths and `..` are refused. */
function readPaths(
  value: SyncData | undefined,
  key: string,
  at: (p: string) => Position,
  problems: Problem[],
): { paths: string[]; pointers: string[] } {
  const items = unwrap(value);
  const out: string[] = [];
  const pointers: string[] = [];
  if (!Array.isArray(items)) return { paths: out, pointers };
  items.forEach((item, i) => {
    if (typeof item !== 'string' || item === '') return;
    const normalized = item.replace(/\\/g, '/').replace(/^\.\//, '');
    if (
      normalized.startsWith('/') ||
      /^[A-Za-z]:\//.test(normalized) ||
      normalized.split('/').includes('..')
    ) {
      problems.push(
        problem(
          'error',
          'SYNC_INVALID',
          `\`${key}\` takes project-relative paths; '${item}' leaves the project`,
          at(`/pdk_template/${key}/${i}`),
        ),
      );
      return;
    }
    out.push(normalized);
    pointers.push(`/pdk_template/${key}/${i}`);
  });
  return { paths: out, pointers };
}

/** `post`: `{ glob: command }` items; a command with `{}` inside a larger word is an error at it. */
function readPost(
  value: SyncData | undefined,
  at: (p: string) => Position,
  problems: Problem[],
): PostCommand[] {
  const items = unwrap(value);
  if (!Array.isArray(items)) return [];
  const out: PostCommand[] = [];
  items.forEach((item, i) => {
    if (!isMapping(item)) return;
    for (const [glob, command] of Object.entries(item)) {
      if (typeof command !== 'string' || command === '') continue;
      const refused = placeholderProblem(command);
      if (refused !== undefined) {
        const position = at(jsonPointer(['pdk_template', 'post', i, glob]));
        problems.push(problem('error', 'SYNC_POST_COMMAND', refused.message, position, refused.hint));
      }
      out.push({ glob, command });
    }
  });
  return out;
}

function isMapping(v: SyncData | undefined): v is SyncDataMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ReplaceValue);
}

/** `!replace` means nothing inside `pdk_template`: read through it. */
function unwrap(v: SyncData | undefined): SyncData | undefined {
  return v instanceof ReplaceValue ? (v.value as Data) : v;
}

function show(v: SyncData): string {
  if (typeof v === 'string') return `the string '${v}'`;
  if (typeof v === 'number') return `the float ${v}`;
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object' && v !== null) return 'a mapping';
  return String(v);
}

/** `/pdk_template/template_sources/0/type` -> `pdk_template.template_sources[0].type`. */
function label(pointer: string): string {
  if (pointer === '') return 'the file';
  return parsePointer(pointer)
    .map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`))
    .join('');
}
