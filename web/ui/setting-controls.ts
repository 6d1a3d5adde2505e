/**
 * The control of one setting's value, from its JSON Schema: a choice, a checkbox, a number, a text, a list
 * of lines, a nested fieldset, or JSON; and its label. Each control reads back the value the user gives.
 */
import { el } from './dom.js';
import type { Json, Schema } from './types.js';

/**
 * The input for a value of `schema`: a choice for an enum, a checkbox, a number or a text field, one line
 * per item for a list of strings, a nested fieldset for an object with declared properties (only the keys
 * the user sets, or that were set, are written), and JSON for anything else. `fallback` is what applies
 * when the user gives no value (the default): an empty number field shows it as its placeholder, and
 * reads as no value (undefined), at any depth.
 */
export function control(
  schema: Schema,
  shown: Json | undefined,
  id: string,
  own?: Json,
  fallback?: Json,
): { node: HTMLElement; read: () => Json | undefined } {
  const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
  const orNull = enumValues ? undefined : nullable(schema);
  if (orNull) {
    // A value of another type than the field's (`hiera_config: 3`): shown and edited as JSON, as it is.
    const other = shown !== undefined && shown !== null && typeof shown !== orNull.kind;
    return other ? json(shown, schema) : orNull.control(shown, fallback);
  }
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  const items = (schema.items ?? {}) as Schema;
  if (enumValues) {
    const select = el('select');
    for (const v of enumValues) select.append(el('option', { value: JSON.stringify(v), textContent: String(v) }));
    // A value that is not one of the options (`no` read as false) is shown as it is, not as an empty choice.
    if (shown !== undefined && !enumValues.some((v) => JSON.stringify(v) === JSON.stringify(shown))) {
      select.append(el('option', { value: JSON.stringify(shown), textContent: `${JSON.stringify(shown)} (not one of the choices)` }));
    }
    select.value = JSON.stringify(shown ?? null);
    return { node: select, read: () => JSON.parse(select.value) as Json };
  }
  if (type === 'boolean') {
    const box = el('input', { type: 'checkbox', checked: shown === true });
    return { node: box, read: () => box.checked };
  }
  if (type === 'integer' || type === 'number') {
    const num = el('input', { type: 'number', value: shown === null || shown === undefined ? '' : String(shown) });
    if (typeof fallback === 'number') num.placeholder = String(fallback);
    // Empty is no value at all (the default applies: field() shows it as the placeholder), not `null`.
    return { node: num, read: () => (num.value === '' ? undefined : Number(num.value)) };
  }
  if (type === 'string') {
    const text = el('input', { type: 'text', value: typeof shown === 'string' ? shown : '' });
    return { node: text, read: () => text.value };
  }
  if (type === 'array' && items.type === 'string' && !Array.isArray(items.enum)) {
    const lines = Array.isArray(shown) ? shown.map(String).join('\n') : '';
    const area = el('textarea', { rows: Math.min(8, Math.max(2, lines.split('\n').length)), value: lines });
    area.title = 'one item per line';
    return { node: area, read: () => area.value.split('\n').filter((l) => l.trim() !== '') };
  }
  const properties = schema.properties as { [key: string]: Schema } | undefined;
  if (type === 'object' && properties && Object.keys(properties).length > 0) {
    const current = (shown && typeof shown === 'object' && !Array.isArray(shown) ? shown : {}) as { [key: string]: Json };
    // Only the keys the project sets (not those of the value from a default or a shared setting), and
    // those the user changes, are written.
    const mine = (own && typeof own === 'object' && !Array.isArray(own) ? own : {}) as { [key: string]: Json };
    const touched = new Set(Object.keys(mine));
    const defaults = (fallback && typeof fallback === 'object' && !Array.isArray(fallback) ? fallback : {}) as {
      [key: string]: Json;
    };
    const fieldset = el('fieldset', { className: 'nested' });
    const readers = new Map<string, () => Json | undefined>();
    for (const [key, sub] of Object.entries(properties)) {
      const innerId = `${id}-${key}`;
      const inner = control(sub, current[key], innerId, mine[key], defaults[key]);
      readers.set(key, inner.read);
      // Marked before the setting's own listener reads the object (the event bubbles up to it).
      inner.node.addEventListener('input', () => touched.add(key));
      inner.node.addEventListener('change', () => touched.add(key));
      const description = typeof sub.description === 'string' ? sub.description : '';
      const row = el('div', { className: 'field' }, label(key, inner.node, innerId), inner.node, el('div', { className: 'help', textContent: description }));
      row.dataset.property = key;
      fieldset.append(row);
    }
    return {
      node: fieldset,
      read: () => {
        const value: { [key: string]: Json } = {};
        for (const k of touched) {
          const reader = readers.get(k);
          // A property the schema does not declare keeps the project's value; an emptied number field
          // is no value, as at the top level: its key goes (the previous value is not kept).
          const v = reader ? reader() : (current[k] ?? null);
          if (v !== undefined) value[k] = v;
        }
        // Nothing left of the project's: no value at all, so the default applies (not `{}` in .sync.yml).
        return Object.keys(value).length > 0 ? value : undefined;
      },
    };
  }
  return json(shown, schema);
}

/**
 * JSON, for a value no other control fits. A setting that may be a text (`selected_profile`: a text or
 * false) says how to write one when the JSON is not valid: `hardcore` alone is no JSON.
 */
function json(shown: Json | undefined, schema?: Schema): { node: HTMLElement; read: () => Json | undefined } {
  const area = el('textarea', { rows: 3, value: JSON.stringify(shown ?? null, null, 2) });
  area.title = 'JSON';
  const text = schema && (schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string')));
  const read = () => {
    try {
      return JSON.parse(area.value) as Json;
    } catch (e) {
      const given = area.value.trim();
      if (!text || given.startsWith('"')) throw e;
      throw new Error(`${(e as Error).message}; a text is written in quotes here: ${JSON.stringify(given)}`);
    }
  };
  return { node: area, read };
}

/**
 * A text or a number that may be null (`"type": ["string", "null"]`, a path none by default): the text or
 * number field, where empty is no value of the project's (the default, null, applies), as an emptied number
 * field is. As JSON, a path had to be typed with its quotes.
 */
function nullable(schema: Schema): { kind: 'string' | 'number'; control: (shown: Json | undefined, fallback?: Json) => { node: HTMLElement; read: () => Json | undefined } } | undefined {
  const types = schema.type;
  if (!Array.isArray(types) || types.length !== 2 || !types.includes('null')) return undefined;
  const other = types.find((t) => t !== 'null');
  if (other === 'string') {
    return {
      kind: 'string',
      control: (shown, fallback) => {
        const text = el('input', { type: 'text', value: typeof shown === 'string' ? shown : '' });
        if (typeof fallback === 'string') text.placeholder = fallback;
        return { node: text, read: () => (text.value === '' ? undefined : text.value) };
      },
    };
  }
  if (other === 'number' || other === 'integer') {
    return {
      kind: 'number',
      control: (shown, fallback) => control({ ...schema, type: other }, shown, '', undefined, fallback),
    };
  }
  return undefined;
}

/**
 * The label of a setting's control: tied to it by `for` (an input, a select, a textarea), or naming it
 * (a nested object's fieldset, by `aria-labelledby`), so that a screen reader announces the setting.
 */
export function label(text: string, node: HTMLElement, id: string): HTMLElement {
  if (node instanceof HTMLFieldSetElement) {
    const legend = el('span', { className: 'label', textContent: text, id: `${id}-label` });
    node.setAttribute('aria-labelledby', legend.id);
    node.setAttribute('role', 'group');
    return legend;
  }
  node.id = id;
  return el('label', { textContent: text, htmlFor: id });
}

