/**
 * What `.sync.yml` completion and hover need of a project: its templates, each with its manifest's words
 * and its settings. Loading a project compiles every template's schema and may take any time on a hostile
 * or huge one (a 1 MB `template_schema.json` of 20,000 properties takes seconds), so it is made in the
 * check worker, under its time limit, and only this plain outline travels back to the server's thread.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { settingsSchema, typeLabel } from '../engine/inspect/schema.js';
import type { Project } from '../engine/project.js';
import { type ConfigDefaults, readConfigDefaults } from '../engine/v1/config-defaults.js';
import type { LocatedV1 } from '../engine/v1/project.js';
import type { RubyRepositoryKind } from '../engine/v1/repository.js';
import { maskCredentials } from '../shared/url-credentials.js';
import { type ErbReads, erbReadsOf } from './erb-reads.js';

export interface SettingOutline {
  readonly name: string;
  /** As `show` prints types: `string`, `array of string`, `any`. */
  readonly type: string;
  readonly description?: string;
}

export interface TemplateOutline {
  readonly name: string;
  readonly dir: string;
  /** The manifest's `name`. */
  readonly title: string;
  readonly description: string;
  readonly version?: string;
  readonly settings: readonly SettingOutline[];
}

export interface ProjectOutline {
  readonly root: string;
  /** The directories of its template sources (a template added to one is a template it may apply). */
  readonly sources: readonly string[];
  readonly templates: readonly TemplateOutline[];
  /** A V1 `.sync.yml` rendered as it is: what renders it (its keys are files, not templates). */
  readonly v1?: V1Outline;
}

/** A V1 repository or modulesync configuration, as completion and hover in its `.sync.yml` see it. */
export interface V1Outline {
  readonly kind: RubyRepositoryKind;
  /** As given or recorded, credentials masked. */
  readonly url: string;
  /** Its checkout (a change there loads the outline again). */
  readonly dir: string;
  /**
   * The files its `moduleroot/` and `moduleroot_init/` write (`.erb` dropped), the keys `.sync.yml` may
   * configure (PDK gives an init file its settings as it does any other).
   */
  readonly files: readonly string[];
  /** Its templates, by their path in the repository (`moduleroot_init/README.md.erb`). */
  readonly templates: readonly string[];
  /** Whether its Ruby runs here (`pantograph lsp --trust`): without, the project is not checked. */
  readonly runs: boolean;
  /** Its `config_defaults.yml`: each file's settings and their defaults (data: no code runs to read it). */
  readonly defaults: ConfigDefaults | undefined;
  /** The `@configs` reads of its templates (both directories), found by reading them (erb-reads.ts). */
  readonly reads: ErbReads;
}

/** A `config_defaults.yml` larger than this is not read (the server's limit of a document). */
const MAX_DEFAULTS_BYTES = 2_000_000;

/** Where a V1 repository's templates are (a modulesync configuration has the first only). */
export const TEMPLATE_DIRS = ['moduleroot', 'moduleroot_init'];

/** The outline of a V1 repository, from its files and data only (nothing of it runs). */
export function v1Outline(located: LocatedV1, runs: boolean): V1Outline {
  const templates = repositoryFiles(located.dir, TEMPLATE_DIRS);
  return {
    kind: located.kind,
    url: located.url,
    dir: located.dir,
    files: [...new Set(templates.map(fileOfTemplate))],
    templates,
    runs,
    defaults: readConfigDefaults(located.dir, MAX_DEFAULTS_BYTES),
    reads: erbReadsOf(located.dir, templates),
  };
}

/** The outline of a loaded project (every template its sources offer, applied or not). */
export function outlineOf(project: Project): ProjectOutline {
  const templates: TemplateOutline[] = [];
  for (const t of project.available.values()) {
    const properties = (settingsSchema(project, t).properties ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
    const names = new Set([...Object.keys(properties), ...Object.keys(t.manifest.default_settings)]);
    const settings = [...names].map((name): SettingOutline => {
      const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
      const description = schema?.description;
      return {
        name,
        type: schema ? typeLabel(schema) : 'any',
        ...(typeof description === 'string' ? { description } : {}),
      };
    });
    templates.push({
      name: t.name,
      dir: t.dir,
      title: t.manifest.name,
      description: t.manifest.description,
      ...(t.manifest.version !== undefined ? { version: t.manifest.version } : {}),
      settings,
    });
  }
  const v1 = project.v1;
  return {
    root: project.root,
    sources: project.sources.map((s) => s.dir),
    templates,
    ...(v1
      ? { v1: v1Outline({ kind: v1.kind, url: maskCredentials(v1.url), dir: v1.source.dir }, true) }
      : {}),
  };
}

/** At most this many files are offered: completion of a huge repository stays small. */
const MAX_FILES = 2000;

/**
 * The regular files of a V1 repository's directories (`moduleroot/`, `moduleroot_init/`), by their path in
 * the repository, as PDK lists them: dot files included, symbolic links not followed, sorted.
 */
export function repositoryFiles(dir: string, subdirs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (sub: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(dir, sub), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.length >= MAX_FILES) return;
      const path = `${sub}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (e.isFile()) files.push(path);
    }
  };
  for (const sub of subdirs) walk(sub);
  return files;
}

/** `moduleroot/.github/ci.yml.erb` -> `.github/ci.yml`, the key `.sync.yml` configures it under. */
export function fileOfTemplate(template: string): string {
  return template.slice(template.indexOf('/') + 1).replace(/\.erb$/, '');
}
