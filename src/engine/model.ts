/**
 * The engine's data model: settings data, template repositories, sources and the project's `.sync.yml`.
 * Pure types (plus the `ReplaceValue` marker class and the `isMap` guard); the loaders live beside this file.
 */
import type { Document } from 'yaml';
import type { PostCommand, Problem } from './render-plan.js';

/**
 * Settings data. YAML/JSON integers are `bigint` and floats `number`, keeping Puppet's Integer/Float
 * distinction (`1` vs `1.0`). Puppet values represent them otherwise (Integer `number`, Float `PFloat`):
 * `dataToValue` / `valueToData` in settings.ts convert between the two.
 */
export type Data = null | boolean | bigint | number | string | Data[] | { [key: string]: Data };

/** A mapping of settings by name. */
export type DataMap = { [key: string]: Data };

/** Whether a Data value is a mapping (not null, not an array). */
export function isMap(value: Data | undefined): value is DataMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A `.sync.yml` sequence or mapping tagged `!replace`: it replaces the inherited value whole. */
export class ReplaceValue {
  constructor(readonly value: Data) {}
}

/** Settings data as written in `.sync.yml`: `Data` where any collection may be a `ReplaceValue`. */
export type SyncData =
  | null
  | boolean
  | bigint
  | number
  | string
  | ReplaceValue
  | SyncData[]
  | { [key: string]: SyncData };

export type SyncDataMap = { [key: string]: SyncData };

/** A place in a file: 1-based line and column. */
export interface Position {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** Finds where a value of a parsed YAML/JSON file is, by JSON pointer (`/gemfile/optional_gems/0`). */
export interface PositionLookup {
  /** Position of the value at `pointer`; the nearest ancestor's when that value does not exist. */
  positionOf(pointer: string): Position;
  /** Position of the key naming the value at `pointer` (array items: the item itself). */
  keyPositionOf(pointer: string): Position;
}

// ---------------------------------------------------------------------------------------------------
// Templates

export const HOOK_NAMES = [
  'after_default_settings',
  'after_shared_settings',
  'after_project_settings',
  'after_file_resolution',
  'before_file_render',
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

/** One shared setting a template publishes (`shared_settings` in template.json). */
export interface SharedSettingDecl {
  readonly description: string | undefined;
  /** JSON Schema of the value, when declared. */
  readonly schema: Readonly<Record<string, unknown>> | undefined;
  /** The published value; undefined when template.json gives none. */
  readonly value: Data | undefined;
}

/** A parsed, validated `template.json`, defaults applied. */
/**
 * What `convert` does with one V1 setting: drop it, or move it to `template.setting`, optionally stripping
 * a suffix from each string of a list, and taking out entries that stand for a boolean setting of their own
 * (`booleanEntries`: entry -> `template.setting`; `x` sets it true, `---x` false).
 */
export type V1SettingRule = null | {
  readonly to: string;
  readonly stripSuffix?: string;
  readonly booleanEntries?: Readonly<Record<string, string>>;
};

export interface TemplateManifest {
  readonly name: string;
  /** Defaults to `name`. */
  readonly description: string;
  /** `module` by default. */
  readonly type: string;
  /** Declared tags, plus the directory name (always a tag), without duplicates. */
  readonly tags: readonly string[];
  readonly always_apply: boolean;
  readonly default_settings: DataMap;
  readonly setting_subscriptions: readonly string[];
  readonly shared_settings: Readonly<Record<string, SharedSettingDecl>>;
  readonly v1_files: readonly string[];
  /** `convert`: V1 settings dropped (null) or moved (`template.setting`, optionally stripping a suffix). */
  readonly v1_settings: Readonly<Record<string, V1SettingRule>>;
  /**
   * `convert`: the settings each V1 file's template read from the file's own section (pdk-templates' ERB
   * `@configs[...]`); a setting a listed file does not read had no effect in PDK. Unlisted files: unknown.
   */
  readonly v1_reads: Readonly<Record<string, readonly string[]>>;
  /**
   * `convert`: the settings config_defaults.yml gives each V1 file (in the section the file's ERB reads),
   * which PDK merged over `common`: a `common` value for them had no effect. Unlisted files: none.
   */
  readonly v1_defaults?: Readonly<Record<string, readonly string[]>>;
  /** `convert`: what PDK did with the V1 files when `.sync.yml` said nothing (absent: applied when named). */
  readonly v1_default: 'managed' | 'unmanaged' | undefined;
  /** `convert`: settings written into the template's section when it is applied to a V1 project. */
  readonly v1_convert_settings: DataMap;
  readonly version: string | undefined;
  /** Semver range of Pantograph versions this template works with. */
  readonly requires: string | undefined;
  /** Other tag delimiters for this template's files, e.g. `['[%', '%]']`. */
  readonly delimiters: readonly [string, string] | undefined;
}

/** One file a template outputs (`files/**` or `files_init/**`). */
export interface TemplateFile {
  /** POSIX path inside the template directory, e.g. `files/Gemfile.epp`. */
  readonly source: string;
  /** Absolute path of the file on disk. */
  readonly absPath: string;
  /** Project-relative POSIX output path, `.epp` dropped, e.g. `Gemfile`. */
  readonly output: string;
  /** `files/` -> 'file'; `files_init/` -> 'init'. */
  readonly kind: 'file' | 'init';
  readonly executable: boolean;
  /** True for `.epp` files (rendered); others are copied byte for byte. */
  readonly isTemplate: boolean;
}

export interface HookFile {
  /** Absolute path of the hook file. */
  readonly path: string;
  readonly kind: 'pp' | 'mjs';
}

/** One template directory of a source, loaded. */
export interface LoadedTemplate {
  /** The directory name (snake_case). */
  readonly name: string;
  /** Absolute path of the template directory. */
  readonly dir: string;
  readonly manifest: TemplateManifest;
  /** Absolute path of template.json. */
  readonly manifestFile: string;
  /** Positions of values in template.json by JSON pointer. */
  readonly manifestPositions: PositionLookup;
  /** The parsed `template_schema.json`, when present. */
  readonly schema: Readonly<Record<string, unknown>> | undefined;
  /** Absolute path of `template_schema.json`, when present. */
  readonly schemaFile: string | undefined;
  /** Positions of values in template_schema.json, when present. */
  readonly schemaPositions: PositionLookup | undefined;
  /** Output files, sorted by kind then source path. */
  readonly files: readonly TemplateFile[];
  /** POSIX paths of `partials/**` inside the template, e.g. `partials/header.epp`. */
  readonly partials: readonly string[];
  readonly hooks: Readonly<Partial<Record<HookName, HookFile>>>;
  /** Index of the source it came from, in the resolved source list. */
  readonly sourceIndex: number;
  /** The source it came from. */
  readonly source: ResolvedSource;
}

// ---------------------------------------------------------------------------------------------------
// Sources

export type SourceType = 'filesystem' | 'git' | 'default';

/** A template source as written in `.sync.yml` (`template_sources`). */
export interface SourceSpec {
  readonly type: SourceType;
  /** Path or URL as written; `default` for the default source. */
  readonly location: string;
  /** Branch, tag or commit (git only). */
  readonly ref?: string;
  /** Whether `.mjs` hooks from this source may run: a git source's default is false, a filesystem one's true. */
  readonly trusted?: boolean;
  /**
   * Set when the file that names the source may not make it trusted (a fleet repository's own `.sync.yml`,
   * template-fence.ts): what to do instead, for the hint of a hook that does not run.
   */
  readonly trustRefused?: string;
  /** Where the source is declared in `.sync.yml`; absent for the implicit default. */
  readonly position?: Position;
}

/** A source made available on disk. */
export interface ResolvedSource {
  readonly spec: SourceSpec;
  /** Index in the resolved source list (search order). */
  readonly index: number;
  /** Absolute directory of the template repository. */
  readonly dir: string;
  /** Resolved commit (git only). */
  readonly commit?: string;
  /**
   * Whether `.mjs` hooks may run: the one predicate of trust. `default` always; filesystem unless
   * `trusted: false`; git only with `trusted: true` (or `--trust`).
   */
  readonly trusted: boolean;
}

/** Where a template was found: the winning source and its directory. */
export interface TemplateLocation {
  readonly name: string;
  /** Absolute template directory. */
  readonly dir: string;
  readonly source: ResolvedSource;
}

// ---------------------------------------------------------------------------------------------------
// .sync.yml

/** A template named in `pdk_template.templates`. */
export interface TemplateRef {
  readonly name: string;
  /** JSON pointer of the entry, e.g. `/pdk_template/templates/2`. */
  readonly pointer: string;
  readonly position: Position;
}

/** A parsed V2 `.sync.yml`. */
export interface SyncConfig {
  /** Absolute path of `.sync.yml`. */
  readonly file: string;
  /** Absolute project root (the directory holding `.sync.yml`). */
  readonly root: string;
  readonly version: number;
  /** Ordered template sources; `[default]` when not given. */
  readonly sources: readonly SourceSpec[];
  /** Templates to apply in order, `---name` exclusions removed. */
  readonly templates: readonly TemplateRef[];
  /** Always-apply templates excluded with `---name` (name without the dashes). */
  readonly excluded: readonly TemplateRef[];
  /** `pdk_template.shared_settings`: project overrides of shared settings. */
  readonly sharedSettings: SyncDataMap;
  readonly unmanaged: readonly string[];
  readonly delete: readonly string[];
  /** The JSON pointer of each `delete` entry in the file (absent: not from a file). */
  readonly deletePointers?: readonly string[];
  readonly purge: boolean;
  readonly post: readonly PostCommand[];
  /**
   * Every top-level key but `pdk_template`: the settings section of the template of that name. An empty
   * section is `{}`. Its JSON pointer is `/<name>` (use `jsonPointer` from yaml-data.ts).
   */
  readonly settings: Readonly<Record<string, SyncDataMap>>;
  /** Positions of every value in the file. */
  readonly positions: PositionLookup;
  /** Shorthand for `positions.positionOf`. */
  readonly positionOf: (pointer: string) => Position;
  /** The parsed YAML document, for rewriting it keeping comments and order. */
  readonly document: Document;
  /** The file's text as read. */
  readonly text: string;
  /** Non-terminating problems found while loading (errors and warnings), all at once. */
  readonly problems: readonly Problem[];
}
