/**
 * `init --stub` (DESIGN 9): the text of a `.sync.yml` for a new project, with `pdk_template` filled in
 * (version 2, the sources, the chosen templates) and every setting of the chosen templates present but
 * commented out, with its default, type and description, so that a user uncomments what they need.
 * Shared settings the templates publish are listed the same way under `pdk_template.shared_settings`.
 * Pure: the caller decides where the text goes.
 */
import { stringify } from 'yaml';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { EngineError } from './errors.js';
import { typeLabel } from './inspect/schema.js';
import type { Data, LoadedTemplate, SourceSpec } from './model.js';
import type { Problem } from './render-plan.js';
import { loadTemplate } from './repository.js';
import { inferSchema } from './settings.js';
import { publishersByName } from './shared-settings.js';
import { listTemplates, resolveSources, type SourceOptions } from './sources/index.js';
import { toJson } from './yaml-data.js';

export interface StubOptions extends SourceOptions {
  /** Template sources, in order; default `[default]`. */
  readonly sources?: readonly SourceSpec[];
  /** Templates to apply; default: the `always_apply` templates of the sources. */
  readonly templates?: readonly string[];
}

export interface Stub {
  /** The `.sync.yml` text. */
  readonly text: string;
  /** The templates it applies, in order. */
  readonly templates: readonly string[];
  /** Problems of the chosen templates (they are stubbed with whatever could be read). */
  readonly problems: readonly Problem[];
}

type Schema = Readonly<Record<string, unknown>>;

/** Builds the stub. Throws EngineError for an unknown template (with a did-you-mean) or an unreachable source. */
export async function stubSyncConfig(options: StubOptions): Promise<Stub> {
  const specs = options.sources?.length
    ? options.sources
    : [{ type: 'default', location: 'default' } as const];
  const sources = await resolveSources(specs, options);
  const listing = listTemplates(sources);
  const available = new Map<string, LoadedTemplate>();
  const loadProblems = new Map<string, readonly Problem[]>();
  for (const location of listing.templates) {
    const load = loadTemplate(location);
    loadProblems.set(location.name, load.problems);
    if (load.template) available.set(location.name, load.template);
  }
  const names =
    options.templates ?? [...available.values()].filter((t) => t.manifest.always_apply).map((t) => t.name);
  const chosen: LoadedTemplate[] = [];
  for (const name of names) {
    const t = available.get(name);
    if (!t) {
      throw new EngineError(
        'COMPOSITION_UNKNOWN_TEMPLATE',
        `unknown template '${name}': no template source has it`,
        {
          hint:
            didYouMeanHint(name, available.keys()) ??
            'run `pantograph list` in a project to see the templates',
        },
      );
    }
    if (!chosen.includes(t)) chosen.push(t);
  }
  const problems = chosen.flatMap((t) => loadProblems.get(t.name) ?? []);

  const lines: string[] = [
    '# Pantograph project configuration (PDK templates version 2).',
    '# Every setting of the chosen templates is listed, commented out with its default:',
    '# uncomment and change what this project needs.',
    'pdk_template:',
    '  version: 2',
    '  template_sources:',
    ...specs.map(sourceLines),
    `  templates:${chosen.length === 0 ? ' []' : ''}`,
    ...chosen.map((t) => `    - ${t.name}`),
  ];
  const publishers = publishersByName([...available.values()]);
  const shared = sharedSettingLines(chosen);
  if (shared.length > 0)
    lines.push(
      '  # Shared settings the templates publish (the project may override them):',
      '  # shared_settings:',
      ...shared,
    );
  for (const t of chosen) lines.push('', ...templateLines(t, publishers));
  return { text: `${lines.join('\n')}\n`, templates: chosen.map((t) => t.name), problems };
}

function sourceLines(spec: SourceSpec): string {
  if (spec.type === 'default') return '    - default';
  const ref = spec.ref !== undefined ? `, ref: ${quote(spec.ref)}` : '';
  return `    - { type: ${spec.type}, location: ${quote(spec.location)}${ref} }`;
}

function quote(text: string): string {
  return stringify(text, { version: '1.1' }).trimEnd();
}

/** The shared settings the chosen templates publish, each commented with its description and value. */
function sharedSettingLines(chosen: readonly LoadedTemplate[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const t of chosen) {
    for (const [name, decl] of Object.entries(t.manifest.shared_settings)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const type = decl.schema ? ` (${typeLabel(decl.schema)})` : '';
      out.push(`  #   # ${decl.description ?? name}${type}; published by ${t.name}`);
      out.push(...commented(name, decl.value, '  #   '));
    }
  }
  return out;
}

/** The template's section: its description, then every setting commented out. */
function templateLines(t: LoadedTemplate, publishers: ReadonlyMap<string, LoadedTemplate[]>): string[] {
  const schema: Schema =
    t.schema ?? inferSchema(t, (name) => publishers.get(name)?.[0]?.manifest.shared_settings[name]?.schema);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = [
    ...new Set([
      ...Object.keys(t.manifest.default_settings),
      ...Object.keys(properties),
      ...t.manifest.setting_subscriptions,
    ]),
  ];
  const header = `# ${t.name}: ${t.manifest.description}`.split('\n').join('\n# ');
  if (names.length === 0) return [header, `# (template '${t.name}' has no settings)`];
  const out = [header, `${t.name}:`];
  for (const name of names) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const subscribed = t.manifest.setting_subscriptions.includes(name);
    const publisher = subscribed ? publishers.get(name)?.find((p) => p !== t) : undefined;
    const description =
      (typeof property?.description === 'string' ? property.description : undefined) ??
      publisher?.manifest.shared_settings[name]?.description;
    // A subscription without a default of its own gets what its publisher declares.
    const value = Object.hasOwn(t.manifest.default_settings, name)
      ? t.manifest.default_settings[name]
      : publisher?.manifest.shared_settings[name]?.value;
    const notes = [
      property ? typeLabel(property) : 'any',
      ...(subscribed ? [`shared setting${publisher ? ` published by ${publisher.name}` : ''}`] : []),
      ...(value === undefined ? ['no default'] : []),
    ];
    out.push(`  # ${description ? `${description} ` : ''}(${notes.join('; ')})`.replace(/\n/g, ' '));
    out.push(...commented(name, value, '  # '));
  }
  return out;
}

/** `name: value` as YAML (1.1, as PDK reads it), each line commented; no default gives `name: ~`. */
function commented(name: string, value: Data | undefined, prefix: string): string[] {
  const text = stringify(
    { [name]: value === undefined ? null : toJson(value) },
    { version: '1.1', flowCollectionPadding: false },
  );
  const lines = text.trimEnd().split('\n');
  if (value === undefined && lines.length === 1) lines[0] = `${name}: ~`;
  return lines.map((l) => `${prefix}${l}`);
}

/** A problem for an existing `.sync.yml` that `init --stub` will not overwrite. */
export function stubExists(file: string): EngineError {
  return new EngineError('STUB_EXISTS', '.sync.yml exists already; init --stub never overwrites it', {
    position: { file, line: 1, column: 1 },
    hint: 'print the stub with --stdout and merge what you need, or remove the file first',
  });
}
