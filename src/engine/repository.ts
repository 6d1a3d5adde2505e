/**
 * Loading one template directory (DESIGN section 3): `template.json` checked against the shipped schema,
 * `template_schema.json` compiled, `files/` and `files_init/` listed, `partials/` and `hooks/` found.
 * Problems are collected, never thrown; a template comes back whenever its `template.json` could be read,
 * with whatever was valid in it. Symlinks may point anywhere inside the template's repository, never out.
 *
 * Here: the load's steps, `requires` and reading the JSON files; the manifest's fields are read in
 * template-manifest.ts, the directories walked by template-walk.ts, the output files listed and checked in
 * template-outputs.ts, the hooks found in template-hooks.ts.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { exists } from '../shared/path-exists.js';
import { isPlainObject } from '../shared/plain-object.js';
import { satisfies } from '../shared/semver.js';
import { engineVersion } from '../version.js';
import { EngineError, type EngineErrorCode, problem } from './errors.js';
import { parseJsonData } from './json-data.js';
import { compileSettingsSchema, shippedSchema, violationProblems } from './json-schema.js';
import type { Data, LoadedTemplate, TemplateLocation, TemplateManifest } from './model.js';
import type { Problem } from './render-plan.js';
import { TEMPLATE_NAME } from './sources/index.js';
import { readHooks } from './template-hooks.js';
import { readManifest } from './template-manifest.js';
import { checkOutputs, listOutputs } from './template-outputs.js';
import { at, inside, realpathOrSelf, TreeWalker } from './template-walk.js';
import type { PositionIndex } from './yaml-data.js';

export interface TemplateLoad {
  /** Undefined only when `template.json` could not be read or parsed. */
  readonly template: LoadedTemplate | undefined;
  /** Every problem found, all at once. */
  readonly problems: readonly Problem[];
}

/** Loads the template at `location` (from `findTemplate` or `listTemplates`). */
export function loadTemplate(location: TemplateLocation): TemplateLoad {
  const head = readTemplateHead(location);
  if (head.head === undefined) return { template: undefined, problems: head.problems };
  const rest = completeTemplate(head.head);
  return { template: rest.template, problems: [...head.problems, ...rest.problems] };
}

/**
 * What decides whether a template loads at all, and whether it is always applied: its name, where it
 * lives, and `template.json`. A project reads this much of every template its sources offer, and the rest
 * (`completeTemplate`: the settings schema, compiled; the files listed; hooks) only of those it applies
 * or asks about: half the default templates are not applied to a module, and reading their schemas and
 * trees was ~20% of a `pantograph status`.
 */
export interface TemplateHead {
  readonly location: TemplateLocation;
  readonly name: string;
  readonly manifest: TemplateManifest;
  readonly manifestFile: string;
  readonly manifestPositions: PositionIndex;
  /** The real path of the template's repository: nothing of it may lead out of there. */
  readonly repoRoot: string;
}

/** Reads a template's head; `head` is undefined when the template cannot be loaded (see `problems`). */
export function readTemplateHead(location: TemplateLocation): {
  readonly head: TemplateHead | undefined;
  readonly problems: readonly Problem[];
} {
  const problems: Problem[] = [];
  const { dir, source } = location;
  const name = basename(dir);
  const manifestFile = join(dir, 'template.json');
  if (!TEMPLATE_NAME.test(name)) {
    problems.push(
      problem(
        'error',
        'TEMPLATE_NAME',
        `template directory '${name}' is not snake_case`,
        at(manifestFile),
        'use lower-case letters, digits and underscores',
      ),
    );
  }
  const repoRoot = realpathOrSelf(source.dir);
  if (!inside(realpathOrSelf(dir), repoRoot)) {
    problems.push(
      problem('error', 'TEMPLATE_SYMLINK', `template '${name}' is a symlink out of its repository`, at(dir)),
    );
    return { head: undefined, problems };
  }
  // template.json and template_schema.json may be links too, but not out of the repository.
  if (new TreeWalker(repoRoot, problems).follow(manifestFile) === undefined)
    return { head: undefined, problems };
  const text = readText(manifestFile, problems);
  const read = text === undefined ? undefined : manifestOf(text, manifestFile, name, problems);
  if (!read) return { head: undefined, problems };
  const { manifest, positions } = read;
  return {
    head: { location, name, manifest, manifestFile, manifestPositions: positions, repoRoot },
    problems,
  };
}

/**
 * Whether `text` would load as the template.json of template `name`: its errors (none: it would). The
 * author's view checks a save with it, so that a half-typed file never replaces a good one.
 */
export function manifestErrors(text: string, manifestFile: string, name: string): Problem[] {
  const problems: Problem[] = [];
  manifestOf(text, manifestFile, name, problems);
  return problems.filter((p) => p.severity === 'error');
}

/** template.json's text read as the loader reads it; undefined when the template cannot load from it. */
function manifestOf(
  text: string,
  manifestFile: string,
  name: string,
  problems: Problem[],
): { manifest: TemplateManifest; positions: PositionIndex } | undefined {
  const parsed = parseJsonData(text, manifestFile, 'TEMPLATE_JSON');
  problems.push(...parsed.problems);
  if (parsed.data === undefined) return undefined;
  const { data, positions } = parsed;
  problems.push(
    ...violationProblems(
      shippedSchema('template').validate(data, text),
      positions,
      'TEMPLATE_INVALID',
      (p) => `template.json${p}`,
    ),
  );
  // A template that means to be always applied but says so wrongly (`"always_apply": "yes"`) must not be
  // silently left out: it is not loaded, so its problem is an error wherever the project is used.
  if (isPlainObject(data) && data.always_apply !== undefined && typeof data.always_apply !== 'boolean') {
    return undefined;
  }
  const manifest = readManifest(data, name);
  checkRequires(manifest, name, positions, problems);
  return { manifest, positions };
}

/** The rest of a template whose head was read: its schema, files, partials and hooks. */
export function completeTemplate(head: TemplateHead): TemplateLoad {
  const problems: Problem[] = [];
  const { location, name, manifest, manifestFile, repoRoot } = head;
  const { dir, source } = location;
  const walker = new TreeWalker(repoRoot, problems);

  let schema: Readonly<Record<string, unknown>> | undefined;
  let schemaFile: string | undefined;
  let schemaPositions: PositionIndex | undefined;
  const schemaPath = join(dir, 'template_schema.json');
  if (exists(schemaPath) && walker.follow(schemaPath) !== undefined) {
    schemaFile = schemaPath;
    const schemaJson = readJson(schemaPath, 'TEMPLATE_SCHEMA', problems);
    if (schemaJson) {
      schemaPositions = schemaJson.positions;
      try {
        schema = compileSettingsSchema(schemaJson.data, schemaPath, schemaJson.positions).schema;
      } catch (e) {
        if (!(e instanceof EngineError)) throw e;
        problems.push(...e.problems);
      }
    }
  }

  const files = [
    ...listOutputs(dir, 'files', 'file', walker),
    ...listOutputs(dir, 'files_init', 'init', walker),
  ];
  checkOutputs(name, files, problems);
  const partials = walker.list(dir, 'partials').map((f) => f.rel);
  const hooks = readHooks(dir, walker, problems);

  const template: LoadedTemplate = {
    name,
    dir,
    manifest,
    manifestFile,
    manifestPositions: head.manifestPositions,
    schema,
    schemaFile,
    schemaPositions,
    files,
    partials,
    hooks,
    sourceIndex: source.index,
    source,
  };
  return { template, problems };
}

/** `requires`: the Pantograph versions the template works with; outside them it is an error. */
function checkRequires(
  manifest: TemplateManifest,
  name: string,
  positions: PositionIndex,
  problems: Problem[],
): void {
  const range = manifest.requires;
  if (range === undefined) return;
  const version = engineVersion();
  const ok = satisfies(version, range);
  if (ok === true) return;
  // Positions only where there is a problem: finding them reads the file again (json-data.ts).
  const position = positions.positionOf('/requires');
  if (ok === undefined) {
    problems.push(
      problem(
        'error',
        'TEMPLATE_INVALID',
        `template '${name}': requires '${range}' is not a version range`,
        position,
        "write a semver range, e.g. '>=0.1.0 <1.0.0'",
      ),
    );
  } else if (!ok) {
    problems.push(
      problem(
        'error',
        'TEMPLATE_REQUIRES',
        `template '${name}' requires Pantograph ${range}; this is Pantograph ${version}`,
        position,
        'upgrade Pantograph, or use a version of the template made for this one',
      ),
    );
  }
}

/** A template's file as text, or undefined with a `TEMPLATE_READ` problem. */
function readText(file: string, problems: Problem[]): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    problems.push(
      problem('error', 'TEMPLATE_READ', `cannot read ${file}: ${(e as Error).message}`, at(file)),
    );
    return undefined;
  }
}

/** Reads a JSON file strictly, with positions and bigint integers (see json-data.ts). */
function readJson(
  file: string,
  code: EngineErrorCode,
  problems: Problem[],
): { data: Data; positions: PositionIndex; text: string } | undefined {
  const text = readText(file, problems);
  if (text === undefined) return undefined;
  const parsed = parseJsonData(text, file, code);
  problems.push(...parsed.problems);
  if (parsed.data === undefined) return undefined;
  return { data: parsed.data, positions: parsed.positions, text };
}

// ---------------------------------------------------------------------------------------------------
// Files
