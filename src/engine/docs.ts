/**
 * `pantograph docs`: each template's README.md generated from its `template.json` and
 * `template_schema.json`, so the documentation cannot drift from the code (the RFC's objective for
 * template authors). The output is a pure function of those files: same input, same bytes.
 *
 * Also the template repository helpers the authors' tools share: finding the repository from the working
 * directory or `--dir`, and loading its templates.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Document, visit } from 'yaml';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { OLD_SUFFIX } from '../sync/write.js';
import { authorProblems } from './author-checks.js';
import { EngineError, problem } from './errors.js';
import { type Data, HOOK_NAMES, type LoadedTemplate, type ResolvedSource } from './model.js';
import type { Problem } from './render-plan.js';
import { loadTemplate } from './repository.js';
import { inferSchema } from './settings.js';
import { listTemplates } from './sources/index.js';

type Schema = Readonly<Record<string, unknown>>;

// ---------------------------------------------------------------------------------------------------
// The template repository

export interface RepositoryTarget {
  /** Absolute directory of the template repository. */
  readonly dir: string;
  /** Templates named by the location itself (run inside a template directory), else empty. */
  readonly selected: readonly string[];
}

/**
 * The repository the authors' tools work on: `dir` (relative to `cwd`) or `cwd`. A template directory
 * (holding template.json) stands for its repository with that template selected.
 */
export function findRepository(cwd: string, dir?: string): RepositoryTarget {
  const at = resolve(cwd, dir ?? '.');
  if (!isDirectory(at)) {
    throw new EngineError('AUTHOR_NO_REPOSITORY', `${dir ?? at} is not a directory`, {
      hint: 'give the template repository with --dir REPO',
    });
  }
  if (existsSync(join(at, 'template.json'))) return { dir: dirname(at), selected: [basename(at)] };
  // Also with --dir: a wrong -C in CI must fail, not report "0 passed" or "0 READMEs up to date".
  if (!readdirSync(at).some((n) => existsSync(join(at, n, 'template.json')))) {
    const project = existsSync(join(at, '.sync.yml'));
    throw new EngineError('AUTHOR_NO_REPOSITORY', `no template repository in ${at}`, {
      hint: project
        ? 'this is a project (it has .sync.yml), no subdirectory holds a template.json: give the template repository (a location of its template_sources) with --dir REPO'
        : 'no subdirectory holds a template.json: run it in a template repository, or give one with --dir REPO',
    });
  }
  return { dir: at, selected: [] };
}

export interface TemplateRepository {
  readonly dir: string;
  /** The repository as a trusted filesystem source. */
  readonly source: ResolvedSource;
  /** The loaded templates (the selected ones, or all), sorted by name. */
  readonly templates: readonly LoadedTemplate[];
  /** Every template of the repository, loaded, by name (for cross-references). */
  readonly all: ReadonlyMap<string, LoadedTemplate>;
  /** What loading the selected templates found; a template that could not be read is left out. */
  readonly problems: readonly Problem[];
}

/**
 * Loads the repository's templates; `names` selects some (each must exist). The selected ones also get
 * the authors' checks (author-checks.ts): docs and test report what a project would find later.
 */
export function loadRepository(dir: string, names: readonly string[] = []): TemplateRepository {
  const real = realpathSync(dir);
  const source: ResolvedSource = {
    spec: { type: 'filesystem', location: real },
    index: 0,
    dir: real,
    trusted: true,
  };
  const listing = listTemplates([source]);
  const known = listing.templates.map((l) => l.name);
  for (const name of names) {
    if (!known.includes(name)) {
      throw new EngineError('AUTHOR_UNKNOWN_TEMPLATE', `no template '${name}' in ${real}`, {
        hint: didYouMeanHint(name, known) ?? `templates here: ${known.join(', ') || '(none)'}`,
      });
    }
  }
  const all = new Map<string, LoadedTemplate>();
  const problems: Problem[] = [...listing.problems];
  for (const location of listing.templates) {
    const load = loadTemplate(location);
    const wanted = names.length === 0 || names.includes(location.name);
    if (wanted) problems.push(...load.problems);
    if (wanted && load.template) problems.push(...authorProblems(load.template));
    if (load.template) all.set(location.name, load.template);
  }
  const templates = [...all.values()].filter((t) => names.length === 0 || names.includes(t.name));
  return { dir: real, source, templates, all, problems };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Generating and checking READMEs

export interface ReadmeResult {
  readonly template: string;
  /** Absolute path of the README. */
  readonly file: string;
  /**
   * `unchanged`; `written` (created or updated); `outdated` (check mode: differs or missing);
   * `hand-written`: a README without the generator's marker, left alone (see `generateReadmes`).
   */
  readonly status: 'unchanged' | 'written' | 'outdated' | 'hand-written';
  /** With `force`, where a hand-written README was saved before being replaced. */
  readonly backup?: string;
}

/** The line every generated README carries: a README without it was written by hand. */
export const GENERATED_MARKER = '<!-- Generated by `pantograph docs`';

/**
 * Writes (or with `check`, only compares) the README of every template of `repo`. A README without
 * `GENERATED_MARKER` is someone's prose: unless `force`, nothing at all is written when there is one (so
 * the author moves it aside first); `force` saves it as `README.md.pantograph-old` and replaces it.
 */
export function generateReadmes(
  repo: TemplateRepository,
  options: { check?: boolean; force?: boolean } = {},
): ReadmeResult[] {
  const planned = repo.templates.map((t) => {
    const file = join(t.dir, 'README.md');
    const current = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    return { template: t.name, file, current, text: templateReadme(t, repo.all) };
  });
  const handWritten = (c: string | undefined) => c !== undefined && !c.includes(GENERATED_MARKER);
  const refuse = options.force !== true && planned.some((p) => handWritten(p.current));
  return planned.map(({ template, file, current, text }): ReadmeResult => {
    if (current === text) return { template, file, status: 'unchanged' };
    if (refuse && handWritten(current)) return { template, file, status: 'hand-written' };
    if (options.check === true) return { template, file, status: 'outdated' };
    if (refuse) return { template, file, status: 'outdated' };
    const backup = handWritten(current) ? saveOld(file, current!) : undefined;
    writeFileSync(file, text);
    return { template, file, status: 'written', ...(backup !== undefined ? { backup } : {}) };
  });
}

/** Saves `text` beside `file` as `<file>.pantograph-old` (`.2`, `.3`... when taken: none is overwritten). */
function saveOld(file: string, text: string): string {
  for (let n = 1; ; n++) {
    const backup = `${file}${OLD_SUFFIX}${n === 1 ? '' : `.${n}`}`;
    if (existsSync(backup)) continue;
    writeFileSync(backup, text, { flag: 'wx' });
    return backup;
  }
}

/** The problem of a README `generateReadmes` left alone because it was written by hand. */
export function handWrittenProblem(file: string): Problem {
  return problem(
    'error',
    'AUTHOR_README_HAND_WRITTEN',
    'README.md was not generated by `pantograph docs` (it lacks the generated marker): not overwritten',
    { file, line: 1, column: 1 },
    "move it aside (the description in template.json is the README's introduction), or run `pantograph docs --force`, which saves it as README.md.pantograph-old",
  );
}

/** The README of one template; `others` (the repository's templates) name publishers of subscriptions. */
export function templateReadme(
  t: LoadedTemplate,
  others: ReadonlyMap<string, LoadedTemplate> = new Map(),
): string {
  const m = t.manifest;
  const out: string[] = [];
  out.push(`# ${m.name}`, '');
  out.push(
    '<!-- Generated by `pantograph docs` from template.json and template_schema.json: edit those, then run `pantograph docs`. -->',
    '',
  );
  out.push(m.description, '');
  out.push('| | |', '|---|---|');
  out.push(`| Template | \`${t.name}\` |`);
  out.push(`| Version | ${m.version ?? 'not versioned'} |`);
  out.push(`| Project type | ${cell(m.type)} |`);
  out.push(`| Tags | ${m.tags.map(code).join(', ')} |`);
  out.push(
    `| Always applied | ${m.always_apply ? `yes (a project excludes it with \`---${t.name}\` in \`templates\`)` : 'no (a project lists it in `templates`)'} |`,
  );
  if (m.requires !== undefined) out.push(`| Requires Pantograph | ${cell(m.requires)} |`);
  if (m.v1_files.length > 0) out.push(`| Replaces V1 files | ${m.v1_files.map(code).join(', ')} |`);
  out.push('');
  out.push(...usageSection(t));
  out.push(...filesSection(t));
  out.push(...settingsSection(t, others));
  out.push(...sharedSection(t, others));
  out.push(...hooksSection(t));
  out.push(...maintainingSection(t));
  return `${out.join('\n').trimEnd()}\n`;
}

function usageSection(t: LoadedTemplate): string[] {
  const m = t.manifest;
  const lines = ['pdk_template:', '  version: 2'];
  if (!m.always_apply) lines.push('  templates:', `    - ${t.name}`);
  const settings = Object.entries(m.default_settings);
  if (settings.length > 0) {
    lines.push(`${t.name}:`);
    for (const [key, value] of settings) {
      const flow = yamlText(value, true).trimEnd();
      const name = yamlKey(key);
      lines.push(
        flow.length <= INLINE_LIMIT && !flow.includes('\n')
          ? `  ${name}: ${flow}`
          : `  # ${name}: (see the default below)`,
      );
    }
  }
  const intro = m.always_apply
    ? "Applied to every project whose template sources include this repository. Settings go in the project's `.sync.yml` under the template's name (the values shown are the defaults):"
    : "List the template in the project's `.sync.yml`; settings go under its name (the values shown are the defaults):";
  return ['## Usage', '', intro, '', '```yaml', ...lines, '```', ''];
}

function filesSection(t: LoadedTemplate): string[] {
  const out = ['## Files', ''];
  if (t.files.length === 0) return [...out, 'This template writes no files.', ''];
  out.push('| Path | From | How |', '|---|---|---|');
  for (const f of t.files) {
    const how = [
      f.isTemplate ? 'rendered' : 'copied',
      ...(f.executable ? ['executable'] : []),
      ...(f.kind === 'init' ? ['only when the project is new'] : []),
    ].join(', ');
    out.push(`| ${code(f.output)} | ${code(f.source)} | ${how} |`);
  }
  out.push('');
  if (t.files.some((f) => f.isTemplate)) {
    out.push('A rendered file whose output is empty or only whitespace is not written.', '');
  }
  return out;
}

interface SettingRow {
  readonly name: string;
  readonly type: string;
  readonly default: Data | undefined;
  readonly description: string;
}

function settingsSection(t: LoadedTemplate, others: ReadonlyMap<string, LoadedTemplate>): string[] {
  const rows = settingRows(t, others);
  const out = ['## Settings', ''];
  if (rows.length === 0) return [...out, 'This template has no settings.', ''];
  const long: [string, Data][] = [];
  out.push('| Setting | Type | Default | Description |', '|---|---|---|---|');
  for (const r of rows) {
    let shown = '';
    if (r.default !== undefined) {
      const inline = compact(r.default);
      if (inline.length <= INLINE_LIMIT) shown = code(inline);
      else {
        shown = 'see below';
        long.push([r.name, r.default]);
      }
    }
    out.push(`| ${code(r.name)} | ${cell(r.type)} | ${shown} | ${cell(r.description)} |`);
  }
  out.push('');
  if (long.length > 0) {
    out.push('### Default values', '');
    for (const [name, value] of long)
      out.push(`${code(name)}:`, '', '```yaml', yamlText(value).trimEnd(), '```', '');
  }
  return out;
}

/** Schema properties (nested objects as `a.b`, array items as `a[].b`), then settings the schema omits. */
function settingRows(t: LoadedTemplate, others: ReadonlyMap<string, LoadedTemplate>): SettingRow[] {
  const sharedSchema = (name: string): Schema | undefined => {
    for (const o of others.values()) {
      const decl = o.manifest.shared_settings[name];
      if (decl?.schema) return decl.schema;
    }
    return undefined;
  };
  const root = t.schema ?? inferSchema(t, sharedSchema);
  const rows: SettingRow[] = [];
  const walk = (schema: Schema, prefix: string, defaults: Data | undefined, depth: number) => {
    const properties = resolveRef(root, schema).properties;
    if (typeof properties !== 'object' || properties === null || depth > 4) return;
    for (const [key, raw] of Object.entries(properties as Record<string, Schema>)) {
      const property = resolveRef(root, raw);
      const name = `${prefix}${key}`;
      const value = isMap(defaults) && Object.hasOwn(defaults, key) ? defaults[key] : undefined;
      rows.push({
        name,
        type: typeLabel(root, property),
        default: value,
        description: typeof property.description === 'string' ? property.description : '',
      });
      walk(property, `${name}.`, value, depth + 1);
      const items = property.items;
      if (property.type === 'array' && typeof items === 'object' && items !== null && !Array.isArray(items)) {
        walk(items as Schema, `${name}[].`, undefined, depth + 1);
      }
    }
  };
  walk(root, '', t.manifest.default_settings, 0);
  const named = new Set(rows.map((r) => r.name));
  for (const [key, value] of Object.entries(t.manifest.default_settings)) {
    if (!named.has(key)) rows.push({ name: key, type: 'any', default: value, description: '' });
  }
  for (const key of t.manifest.setting_subscriptions) {
    if (named.has(key) || Object.hasOwn(t.manifest.default_settings, key)) continue;
    const schema = sharedSchema(key);
    rows.push({
      name: key,
      type: schema ? typeLabel(schema, schema) : 'any',
      default: undefined,
      description: 'Shared setting (see Shared settings).',
    });
  }
  return rows;
}

function sharedSection(t: LoadedTemplate, others: ReadonlyMap<string, LoadedTemplate>): string[] {
  const m = t.manifest;
  const published = Object.entries(m.shared_settings);
  if (published.length === 0 && m.setting_subscriptions.length === 0) return [];
  const out = ['## Shared settings', ''];
  if (published.length > 0) {
    const long: [string, Data][] = [];
    out.push('Publishes:', '', '| Name | Description | Value |', '|---|---|---|');
    for (const [name, decl] of published) {
      let shown = '';
      if (decl.value !== undefined) {
        const inline = compact(decl.value);
        if (inline.length <= INLINE_LIMIT) shown = code(inline);
        else {
          shown = 'see below';
          long.push([name, decl.value]);
        }
      }
      out.push(`| ${code(name)} | ${cell(decl.description ?? '')} | ${shown} |`);
    }
    out.push('');
    for (const [name, value] of long)
      out.push(`${code(name)}:`, '', '```yaml', yamlText(value).trimEnd(), '```', '');
  }
  if (m.setting_subscriptions.length > 0) {
    out.push(
      'Subscribes to (each arrives as a setting of that name):',
      '',
      '| Name | Published by |',
      '|---|---|',
    );
    for (const name of m.setting_subscriptions) {
      const publishers = [...others.values()]
        .filter((o) => o !== t && Object.hasOwn(o.manifest.shared_settings, name))
        .map((o) => code(o.name));
      out.push(
        `| ${code(name)} | ${publishers.length > 0 ? publishers.join(', ') : 'no template of this repository'} |`,
      );
    }
    out.push('');
  }
  return out;
}

function hooksSection(t: LoadedTemplate): string[] {
  const present = HOOK_NAMES.filter((h) => t.hooks[h] !== undefined);
  if (present.length === 0) return [];
  const out = ['## Hooks', ''];
  for (const h of present) {
    const kind = t.hooks[h]!.kind;
    const how =
      kind === 'pp' ? 'Puppet language, sandboxed' : 'JavaScript, runs only when the source is trusted';
    out.push(`- ${code(h)}: \`hooks/${h}.${kind}\` (${how})`);
  }
  return [...out, ''];
}

function maintainingSection(t: LoadedTemplate): string[] {
  return [
    '## Maintaining this template',
    '',
    '- `files/` holds the files every run writes, `files_init/` those written once into a new project; a',
    '  file ending in `.epp` is rendered with the settings as its parameters, any other file is copied.',
    "- `partials/` holds EPP templates the files include with `epp('partials/name.epp', {...})`.",
    '- `hooks/<hook>.pp` (or `.mjs`) changes the settings or the files to render at a lifecycle step; a',
    `  hook runs whenever its file exists. The hooks: ${HOOK_NAMES.map(code).join(', ')}.`,
    '- `tests/<case>/` holds a `.sync.yml` (without `template_sources`, this repository is the only source),',
    `  optional project files and the \`expected/\` output: run \`pantograph test ${t.name}\`, and`,
    '  `pantograph test --update` to accept new output.',
    '- This README is generated: run `pantograph docs` after changing template.json or the schema.',
  ];
}

// ---------------------------------------------------------------------------------------------------
// Formatting

const INLINE_LIMIT = 60;

/** Follows a local `$ref` (`#/definitions/x`); other schemas come back as they are. */
function resolveRef(root: Schema, schema: Schema, depth = 0): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth > 10) return schema;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (typeof node !== 'object' || node === null) return schema;
  // Keywords beside `$ref` (draft 2019+, and our own descriptions) refine the target.
  const { $ref: _ref, ...rest } = schema;
  return { ...resolveRef(root, node as Schema, depth + 1), ...rest };
}

/** `string`, `array of string`, `integer or null`, `"a", "b"`, `map of string`, or `any`. */
function typeLabel(root: Schema, raw: Schema, depth = 0): string {
  const schema = resolveRef(root, raw);
  if (depth > 4) return 'any';
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (Object.hasOwn(schema, 'const')) return `exactly ${JSON.stringify(schema.const)}`;
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants)) return variants.map((v) => typeLabel(root, v, depth + 1)).join(' or ');
  const type = schema.type;
  const types = Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
  if (types.length === 0) return 'any';
  return types
    .map((ty) => {
      if (ty === 'array' && isSchema(schema.items)) {
        const inner = typeLabel(root, schema.items, depth + 1);
        return inner === 'any' ? 'array' : `array of ${inner.includes(' or ') ? `(${inner})` : inner}`;
      }
      if (ty === 'object' && isSchema(schema.additionalProperties) && schema.properties === undefined) {
        const inner = typeLabel(root, schema.additionalProperties, depth + 1);
        return inner === 'any' ? 'object' : `map of ${inner}`;
      }
      return ty;
    })
    .join(' or ');
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMap(value: Data | undefined): value is { [key: string]: Data } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value on one line, JSON-like; floats keep their `.0`. */
function compact(value: Data): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(1) : String(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(compact).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${compact(v)}`)
    .join(', ')}}`;
}

/** YAML 1.1 text (as `.sync.yml` is read), block or flow; floats keep their `.0`. */
function yamlText(value: Data, flow = false): string {
  const doc = new Document(value, { version: '1.1' });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'number' && Number.isInteger(node.value)) node.minFractionDigits = 1;
    },
  });
  return doc.toString({ lineWidth: 0, ...(flow ? { collectionStyle: 'flow' as const } : {}) });
}

function yamlKey(key: string): string {
  return yamlText(key).trimEnd();
}

/** Inline code, safe inside a table cell. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = fence.length > 1 ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** Text for a table cell: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}
