/**
 * The JSON Schema of one project's `.sync.yml` (`pantograph schema`): the published schema of the file
 * (schemas/sync.schema.json) with a section per template the project's sources offer, each section the
 * template's settings schema. Editors without our language server validate and complete `.sync.yml`
 * with it through the YAML language server (`# yaml-language-server: $schema=...`).
 *
 * A section only overrides the template's defaults (merged over them, hashes deeply), so `required` is
 * dropped from the embedded schemas: a missing key is no error in the file. Their local `$ref`s are
 * rewritten to point into the section, and their `$schema`/`$id` dropped, so they resolve in one document.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import { settingsSchema } from './inspect/schema.js';
import type { Project } from './project.js';
import { escapePointerSegment } from './yaml-data.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The composed schema of the project's `.sync.yml`, as plain JSON. */
export function syncSchemaOf(project: Project): JsonObject {
  const base = JSON.parse(readFileSync(packagePath('schemas', 'sync.schema.json'), 'utf8')) as JsonObject;
  const names = [...project.available.keys()].sort();
  const properties: JsonObject = { ...(base.properties as JsonObject) };
  for (const name of names) {
    const t = project.available.get(name)!;
    const pointer = `#/properties/${escapePointerSegment(name)}`;
    const section = sectionSchema(settingsSchema(project, t) as unknown as Json, pointer) as JsonObject;
    properties[name] = {
      ...section,
      type: ['object', 'null'],
      description: t.manifest.description,
    };
  }
  const pdk = properties.pdk_template as JsonObject;
  const pdkProperties = pdk.properties as JsonObject;
  const templates = pdkProperties.templates as JsonObject;
  properties.pdk_template = {
    ...pdk,
    properties: {
      ...pdkProperties,
      templates: { ...templates, items: { ...(templates.items as JsonObject), examples: names } },
    },
  };
  const { $id: _id, ...rest } = base;
  return {
    ...rest,
    title: `.sync.yml of ${project.name}`,
    properties,
  };
}

/** A template's settings schema made a subschema at `pointer`. */
function sectionSchema(schema: Json, pointer: string): Json {
  if (Array.isArray(schema)) return schema.map((s) => sectionSchema(s, pointer));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    // Keywords only: a property may be called `required` too (its schema is an object).
    if ((key === '$schema' || key === '$id') && typeof value === 'string') continue;
    if (key === 'required' && Array.isArray(value)) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#')) {
      out[key] = `${pointer}${value.slice(1)}`;
    } else {
      out[key] = sectionSchema(value, pointer);
    }
  }
  return out;
}
