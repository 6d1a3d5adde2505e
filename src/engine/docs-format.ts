/** How a generated README writes schemas, values and table cells (see docs.ts). */
import { Document, visit } from 'yaml';
import type { Data } from './model.js';

export type Schema = Readonly<Record<string, unknown>>;
export const INLINE_LIMIT = 60;

/** Follows a local `$ref` (`#/definitions/x`); other schemas come back as they are. */
export function resolveRef(root: Schema, schema: Schema, depth = 0): Schema {
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
export function typeLabel(root: Schema, raw: Schema, depth = 0): string {
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

/** A value on one line, JSON-like; floats keep their `.0`. */
export function compact(value: Data): string {
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
export function yamlText(value: Data, flow = false): string {
  const doc = new Document(value, { version: '1.1' });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'number' && Number.isInteger(node.value)) node.minFractionDigits = 1;
    },
  });
  return doc.toString({ lineWidth: 0, ...(flow ? { collectionStyle: 'flow' as const } : {}) });
}

export function yamlKey(key: string): string {
  return yamlText(key).trimEnd();
}

/** Inline code, safe inside a table cell. */
export function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = fence.length > 1 ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/** Text for a table cell: one line, pipes escaped. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}
