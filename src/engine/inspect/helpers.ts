/** What the layers of a template's inspection share (see ../inspect.ts): a parameter's node, and small helpers. */
import type { ParameterNode } from '../../epp/ast.js';
import { lineColumn } from '../../shared/position.js';
import type { Data } from '../model.js';
import { literalValue } from '../static-analysis.js';
import { toJson } from '../yaml-data.js';
import type { InspectOrigin, InspectParameter } from './tree.js';

export function parameter(
  type: string,
  description: string | null,
  fields: { Default?: unknown; Value?: unknown; origin: InspectOrigin | null },
): InspectParameter {
  const { origin, ...values } = fields;
  const required = !Object.hasOwn(values, 'Default') && !Object.hasOwn(values, 'Value');
  return {
    Type: type,
    Description: description,
    ...values,
    Origin: origin,
    ...(required ? { Required: true } : {}),
  };
}

/**
 * An EPP parameter's own default: its value when written literally, else its source text; the origin
 * names the text. No default: Required.
 */
export function eppDefault(
  p: ParameterNode,
  source: string,
): { Default?: unknown; origin: InspectOrigin | null } {
  if (!p.defaultValue) return { origin: null };
  const text = source.slice(p.defaultValue.start, p.defaultValue.end);
  const value = literalValue(p.defaultValue);
  return {
    Default: value === undefined ? text : toJson(value),
    origin: { Layer: 'epp_default', Detail: text },
  };
}

export const lineOf = lineColumn;

/** The text of a `<%# ... %>` comment the file starts with (after a parameter list), or null. */
export function leadingComment(
  source: string,
  delimiters: readonly [string, string] | undefined,
): string | null {
  const [open, close] = delimiters ?? ['<%', '%>'];
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const params = `(?:${esc(open)}-?\\s*\\|[\\s\\S]*?\\|\\s*-?${esc(close)}\\s*)?`;
  const m = new RegExp(`^\\s*${params}${esc(open)}#([\\s\\S]*?)-?${esc(close)}`).exec(source);
  const text = m?.[1]?.trim();
  return text ? text : null;
}

export function own<T>(map: { readonly [key: string]: T }, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

export function setKey<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function sameData(a: Data | undefined, b: Data | undefined): boolean {
  return JSON.stringify(toJson(a)) === JSON.stringify(toJson(b));
}
