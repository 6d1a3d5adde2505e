/**
 * Checks the authors' tools (`docs`, `test`) make of a loaded template beyond what loading it checks:
 * what a project would only find later, or never. A default that breaks the template's own schema is
 * published by `docs` and fails every project that keeps it; a `name` that is not the directory's makes
 * the README's title differ from the name projects list.
 */

import { didYouMeanHint } from '../shared/did-you-mean.js';
import { EngineError, problem } from './errors.js';
import { compileSettingsSchema, violationProblems } from './json-schema.js';
import type { LoadedTemplate, PositionLookup } from './model.js';
import type { Problem } from './render-plan.js';
import { SchemaLimitError, schemaLimitProblem, schemaLimits } from './schema-sandbox.js';
import { judgesUnknownKeys } from './settings.js';
import { jsonPointer } from './yaml-data.js';

export function authorProblems(t: LoadedTemplate): Problem[] {
  return [...nameProblems(t), ...defaultProblems(t), ...convertSettingProblems(t)];
}

/**
 * `name` is a title for the directory's name, so it may differ in case and separators (`Demo` for
 * `demo`, `GitHub Actions` for `github_actions`), not in words.
 */
function nameProblems(t: LoadedTemplate): Problem[] {
  const title = t.manifest.name;
  const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (squash(title) === squash(t.name)) return [];
  return [
    problem(
      'warning',
      'AUTHOR_NAME_MISMATCH',
      `template.json names the template '${title}', but its directory (the name projects list) is '${t.name}'`,
      t.manifestPositions.positionOf('/name'),
      `set "name" to "${t.name}", or rename the directory to the name projects should use`,
    ),
  ];
}

/** `default_settings` against `template_schema.json`, at each default's place in template.json. */
function defaultProblems(t: LoadedTemplate): Problem[] {
  if (t.schema === undefined || t.schemaFile === undefined) return [];
  let violations: ReturnType<ReturnType<typeof compileSettingsSchema>['validate']>;
  try {
    violations = compileSettingsSchema(t.schema, t.schemaFile, t.schemaPositions).validate(
      t.manifest.default_settings,
      undefined,
      schemaLimits(t.source.trusted),
    );
  } catch (e) {
    // A schema that does not compile was reported when the template was loaded.
    if (e instanceof EngineError) return [];
    if (e instanceof SchemaLimitError)
      return [schemaLimitProblem(t.name, e, t.schemaFile, t.schemaPositions)];
    throw e;
  }
  // A required setting without a default is the project's to give (or a subscription's): not a fault.
  const own = violations.filter((v) => v.keyword !== 'required');
  const at: PositionLookup = {
    positionOf: (p) => t.manifestPositions.positionOf(`/default_settings${p}`),
    keyPositionOf: (p) => t.manifestPositions.keyPositionOf(`/default_settings${p}`),
  };
  return violationProblems(own, at, 'AUTHOR_DEFAULT_INVALID', (p) => `default_settings${p}`).map((p) => ({
    ...p,
    message: `${p.message} (template_schema.json)`,
    hint: p.hint ?? 'change the default in template.json, or the schema, so that they agree',
  }));
}

/**
 * `v1_convert_settings` are written into a converted project's section: a key the template does not take
 * would make that project fail on its first `validate` (an unknown setting), far from the template.
 * Their values are checked by the project's validation; their names here, where the author wrote them.
 */
function convertSettingProblems(t: LoadedTemplate): Problem[] {
  const given = Object.keys(t.manifest.v1_convert_settings);
  if (given.length === 0) return [];
  const properties = t.schema?.properties;
  const takes = new Set([
    ...Object.keys(t.manifest.default_settings),
    ...t.manifest.setting_subscriptions,
    ...(properties !== null && typeof properties === 'object' ? Object.keys(properties) : []),
  ]);
  // A schema that decides about unknown keys itself (additionalProperties and the like) may take them.
  if (t.schema !== undefined && judgesUnknownKeys(t.schema) && t.schema.additionalProperties !== false)
    return [];
  return given
    .filter((key) => !takes.has(key))
    .map((key) =>
      problem(
        'error',
        'AUTHOR_CONVERT_SETTING_UNKNOWN',
        `v1_convert_settings sets '${key}', which is not a setting of the template`,
        t.manifestPositions.keyPositionOf(jsonPointer(['v1_convert_settings', key])),
        didYouMeanHint(key, [...takes]) ??
          `convert writes it into converted projects, whose validate would refuse it: add '${key}' to default_settings (and the schema), or remove it`,
      ),
    );
}
