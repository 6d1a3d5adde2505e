/** A template's settings schema (its own, or the inferred one) and its types' labels, as `show` prints them. */
import type { LoadedTemplate } from '../model.js';
import type { Project } from '../project.js';
import { inferSchema } from '../settings.js';
import { publishersByName } from '../shared-settings.js';

export type Schema = Readonly<Record<string, unknown>>;
/** The template's schema, or the one inferred from its defaults and the publishers' schemas. */
export function settingsSchema(project: Project, t: LoadedTemplate): Schema {
  if (t.schema) return t.schema;
  const publishers = publishersByName([...project.available.values()]);
  return inferSchema(t, (name) => publishers.get(name)?.[0]?.manifest.shared_settings[name]?.schema);
}

/** `string`, `array of string`, `integer|null`, `enum("a", "b")`, or `any` (as `show` prints types). */
export function typeLabel(schema: Schema): string {
  if (Array.isArray(schema.enum)) return `enum(${schema.enum.map((v) => JSON.stringify(v)).join(', ')})`;
  if (Object.hasOwn(schema, 'const')) return `const ${JSON.stringify(schema.const)}`;
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(variants)) return variants.map(typeLabel).join('|');
  const type = schema.type;
  const label = Array.isArray(type) ? type.join('|') : typeof type === 'string' ? type : 'any';
  const items = schema.items as Schema | undefined;
  if (label === 'array' && items && typeof items === 'object' && !Array.isArray(items)) {
    const inner = typeLabel(items);
    if (inner !== 'any') return `array of ${inner}`;
  }
  return label;
}
