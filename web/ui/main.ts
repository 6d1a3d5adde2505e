/**
 * The web interface's page (served by `pantograph ui`): the template catalogue, a settings form per
 * applied template generated from its JSON Schema, and a live preview of what apply would do with the
 * unsaved settings. Every change goes through the server (src/ui/api.ts), which edits `.sync.yml` keeping
 * its comments; the page holds the edited text until it is saved or applied. A save or an apply says what
 * it is based on (the `.sync.yml` the page loaded, the preview it shows): the server refuses it when the
 * project changed meanwhile, and the page then offers to reload.
 */

import { startAuthor } from './author.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = { [key: string]: Json };

interface CatalogueEntry {
  name: string;
  description: string;
  tags: string[];
  version: string | null;
  alwaysApply: boolean;
  applied: boolean;
  source: string;
}

interface SettingInfo {
  name: string;
  type: string;
  description: string | null;
  default: Json;
  value: Json;
  origin: { layer: string; detail?: string; line?: number; column?: number } | null;
}

interface Form {
  template: string;
  schema: Schema;
  values: { [key: string]: Json };
  /** Settings the project tags `!replace`: its value replaces the inherited one instead of adding to it. */
  replaced?: string[];
  settings: SettingInfo[];
}

interface Problem {
  severity: string;
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
}

interface Entry {
  path: string;
  state: string;
  template?: string;
  reason?: string;
  diff?: string;
}

/**
 * The token `pantograph ui` printed in its URL: taken from the address once, kept in this tab's
 * sessionStorage (per origin: another server on 127.0.0.1 cannot read it, as it could a cookie), and removed
 * from the address bar so that it is not bookmarked or shown. Sent in a header with every API call.
 */
const TOKEN_KEY = 'pantograph-token';
function takeToken(): string {
  const url = new URL(location.href);
  const given = url.searchParams.get('token');
  if (given) {
    sessionStorage.setItem(TOKEN_KEY, given);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}
const token = takeToken();
let syncText: string | undefined;
let savedText = '';
/** The `.sync.yml` on disk the page's text was edited from, as the server names it (its hash). */
let base = '';
/** The preview shown: for which text, and its fingerprint (none when the plan had errors). */
let previewed: { text: string | undefined; fingerprint: string | undefined } | undefined;
let forms: Form[] = [];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** An answer of the API other than success or a list of problems: what it says, and what to do. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly hint: string | undefined,
    readonly changed: string[] = [],
  ) {
    super(message);
  }
}

async function call<T>(path: string, body: object): Promise<T> {
  const response = await fetch(`/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pantograph-token': token },
    body: JSON.stringify(body),
  });
  const data = (await response.json()) as T & {
    error?: string;
    code?: string;
    hint?: string;
    problems?: Problem[];
    changed?: string[];
  };
  if (!response.ok && !data.problems) {
    throw new ApiError(response.status, data.error ?? `HTTP ${response.status}`, data.code, data.hint, data.changed ?? []);
  }
  return data;
}

/**
 * Says why a request failed, above the panes. A refusal because `.sync.yml` changed, and a project that
 * does not load, offer to reload `.sync.yml` (once fixed in an editor).
 */
function notify(error: unknown, reload = false): void {
  const api = error instanceof ApiError ? error : undefined;
  $('notice-text').textContent = api?.hint ? `${api.message}: ${api.hint}` : String((error as Error).message ?? error);
  $('reload').hidden = !(reload || api?.code === 'SYNC_CHANGED' || api?.status === 422 || (api !== undefined && !loaded));
  $('notice').hidden = false;
}

/** Whether the project loaded once (its catalogue is shown): until then a failure offers a reload. */
let loaded = false;

/** Runs a user's action; its failure is shown, not lost. */
function guarded(action: () => Promise<void>): () => void {
  return () => void action().catch(notify);
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { className?: string } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

async function refresh(): Promise<void> {
  const state = await call<{
    project: string;
    syncText: string;
    catalogue?: CatalogueEntry[];
    forms: Form[];
    problems: Problem[];
    base?: string;
    error?: string;
  }>('state', syncText === undefined ? {} : { syncText });
  if (state.catalogue === undefined) {
    // The project does not load (.sync.yml's YAML, a source that cannot be fetched...): what and where,
    // as the command line says it; fixed in an editor, Reload reads it again.
    $('catalogue').replaceChildren();
    $('forms').replaceChildren();
    $('files').replaceChildren();
    $('diff').textContent = '';
    drawProblems(state.problems ?? []);
    const first = state.problems?.find((p) => p.severity === 'error');
    notify(new ApiError(422, `the project does not load: ${state.error ?? first?.message ?? 'see the problems'}`, 'LOAD', 'fix it (the problems are listed under Settings), then reload'), true);
    return;
  }
  loaded = true;
  if (syncText === undefined) {
    savedText = state.syncText;
    base = state.base ?? '';
  }
  syncText = state.syncText;
  forms = state.forms;
  $('project').textContent = state.project;
  project = state.project;
  drawCatalogue(state.catalogue);
  drawForms();
  drawProblems(state.problems);
  markDirty();
  await preview();
}

function drawCatalogue(entries: CatalogueEntry[]): void {
  $('catalogue').replaceChildren(
    ...entries.map((t) => {
      const button = el('button', { textContent: t.applied ? 'Remove' : 'Add', className: 'toggle' });
      // Heard as "Remove rubocop", not as one of a dozen "Remove"s.
      button.setAttribute('aria-label', `${t.applied ? 'Remove' : 'Add'} ${t.name}`);
      button.dataset.template = t.name;
      button.addEventListener('click', guarded(() => toggle(t.name, !t.applied)));
      return el(
        'li',
        {},
        el('span', { className: 'name', textContent: t.name }),
        el('span', { className: `badge${t.applied ? ' applied' : ''}`, textContent: t.applied ? 'applied' : 'not applied' }),
        t.alwaysApply ? el('span', { className: 'badge', textContent: 'always' }) : '',
        el('div', { className: 'meta', textContent: `${t.version ?? ''} · ${t.source} · ${t.tags.join(', ')}` }),
        el('div', { className: 'desc', textContent: t.description }),
        button,
      );
    }),
  );
}

async function toggle(template: string, add: boolean): Promise<void> {
  const edit = await call<{ text: string }>('edit', { kind: add ? 'add' : 'remove', template, syncText });
  syncText = edit.text;
  await refresh();
  // The catalogue is drawn again: the keyboard stays on the template's button (now the other action).
  document.querySelector<HTMLElement>(`#catalogue button[data-template="${CSS.escape(template)}"]`)?.focus();
}

function drawForms(): void {
  $('forms').replaceChildren(
    ...forms.map((form) => {
      const fieldset = el('fieldset', {}, el('legend', { textContent: form.template }));
      fieldset.dataset.template = form.template;
      const properties = (form.schema.properties ?? {}) as { [key: string]: Schema };
      for (const info of form.settings) {
        fieldset.append(field(form, info, properties[info.name] ?? {}));
      }
      return fieldset;
    }),
  );
}

/** One input for one setting, from its schema: text, number, checkbox, a choice, or JSON for the rest. */
function field(form: Form, info: SettingInfo, schema: Schema): HTMLElement {
  const set = Object.hasOwn(form.values, info.name);
  const id = `setting-${form.template}-${info.name}`;
  const own = set ? form.values[info.name] : undefined;
  const { node, read } = control(schema, set ? form.values[info.name]! : info.value, id, own, info.default);
  const error = el('div', { className: 'error', id: `${id}-error` });
  error.setAttribute('aria-live', 'polite');
  const origin = el('div', { className: 'origin' }, `value from ${originText(info)}`, set ? resetButton(form, info) : '');
  node.setAttribute('aria-describedby', error.id);
  const wrapper = el(
    'div',
    { className: 'field' },
    label(`${info.name}: ${info.type}`, node, id),
    node,
    el('div', { className: 'help', textContent: `${info.description ?? ''} (default: ${JSON.stringify(info.default)})` }),
    origin,
    form.replaced?.includes(info.name)
      ? el('div', { className: 'replace', textContent: '!replace: this value replaces the inherited one (kept on save)' })
      : '',
    error,
  );
  wrapper.dataset.setting = info.name;
  // Inputs of nested objects bubble their events up to here.
  wrapper.addEventListener('input', () => {
    let value: Json | undefined;
    try {
      value = read();
    } catch (e) {
      wrapper.classList.add('invalid');
      error.textContent = `not valid JSON: ${(e as Error).message}`;
      markDirty();
      return;
    }
    if (value === undefined) {
      // An emptied number field (or every field of an object): no value of the project's (not `null` in
      // .sync.yml), so the default.
      const { [info.name]: _, ...rest } = form.values;
      form.values = rest;
      origin.replaceChildren(`value from the default (${JSON.stringify(info.default)}): the field is empty`);
    } else {
      form.values = { ...form.values, [info.name]: value };
      // Set here now: the project's value, which can be reset.
      if (!origin.querySelector('.reset')) origin.replaceChildren('value from this page (.sync.yml once saved)', resetButton(form, info));
    }
    changed(form).catch(notify);
  });
  return wrapper;
}

/**
 * For a setting the project sets: takes its key out of `.sync.yml` (the rest of the file kept as it is),
 * so that the value comes again from the template's default or a shared setting. Clearing a text field
 * instead would write an empty text (an emptied number field is a reset: see field()).
 */
function resetButton(form: Form, info: SettingInfo): HTMLElement {
  const button = el('button', { type: 'button', className: 'reset', textContent: 'reset to default' });
  button.setAttribute('aria-label', `reset ${info.name} to its default (${JSON.stringify(info.default)}): remove it from .sync.yml`);
  button.addEventListener(
    'click',
    guarded(async () => {
      const { [info.name]: _, ...rest } = form.values;
      form.values = rest; // an edit of this form still on its way sends these
      const edit = await call<{ text: string }>('edit', { kind: 'settings', template: form.template, settings: rest, syncText });
      syncText = edit.text;
      await refresh();
      // The form is drawn again: the keyboard goes on from the setting that was reset.
      const field = document.querySelector(`fieldset[data-template="${CSS.escape(form.template)}"] > .field[data-setting="${CSS.escape(info.name)}"]`);
      field?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    }),
  );
  return button;
}

/**
 * The input for a value of `schema`: a choice for an enum, a checkbox, a number or a text field, one line
 * per item for a list of strings, a nested fieldset for an object with declared properties (only the keys
 * the user sets, or that were set, are written), and JSON for anything else. `fallback` is what applies
 * when the user gives no value (the default): an empty number field shows it as its placeholder, and
 * reads as no value (undefined), at any depth.
 */
function control(
  schema: Schema,
  shown: Json | undefined,
  id: string,
  own?: Json,
  fallback?: Json,
): { node: HTMLElement; read: () => Json | undefined } {
  const enumValues = Array.isArray(schema.enum) ? schema.enum : undefined;
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
  const area = el('textarea', { rows: 3, value: JSON.stringify(shown ?? null, null, 2) });
  area.title = 'JSON';
  return { node: area, read: () => JSON.parse(area.value) as Json };
}

/**
 * The label of a setting's control: tied to it by `for` (an input, a select, a textarea), or naming it
 * (a nested object's fieldset, by `aria-labelledby`), so that a screen reader announces the setting.
 */
function label(text: string, node: HTMLElement, id: string): HTMLElement {
  if (node instanceof HTMLFieldSetElement) {
    const legend = el('span', { className: 'label', textContent: text, id: `${id}-label` });
    node.setAttribute('aria-labelledby', legend.id);
    node.setAttribute('role', 'group');
    return legend;
  }
  node.id = id;
  return el('label', { textContent: text, htmlFor: id });
}

function originText(info: SettingInfo): string {
  const o = info.origin;
  if (!o) return 'nowhere (unset)';
  if (o.layer === 'project' && o.line !== undefined) return `.sync.yml:${o.line}:${o.column}`;
  return o.detail ? `${o.layer} (${o.detail})` : o.layer;
}

let pending: ReturnType<typeof setTimeout> | undefined;

/** A setting changed: its errors at once (as validate says them), then the text and the preview. */
async function changed(form: Form): Promise<void> {
  const check = await call<{ errors: { setting: string; message: string }[] }>('check', {
    template: form.template,
    settings: form.values,
    syncText,
  });
  // The settings' own fields (a nested object's properties are fields inside one of them: its errors are
  // the setting's, said at the setting).
  const fieldset = document.querySelector<HTMLElement>(`fieldset[data-template="${form.template}"]`);
  for (const wrapper of fieldset?.querySelectorAll<HTMLElement>(':scope > .field') ?? []) {
    const mine = check.errors.filter((e) => e.setting === wrapper.dataset.setting);
    wrapper.classList.toggle('invalid', mine.length > 0);
    const error = wrapper.querySelector<HTMLElement>(':scope > .error');
    if (error) error.textContent = mine.map((e) => e.message).join('; ');
  }
  markDirty();
  if (check.errors.length > 0) return;
  const edit = await call<{ text: string }>('edit', { kind: 'settings', template: form.template, settings: form.values, syncText });
  syncText = edit.text;
  markDirty();
  clearTimeout(pending);
  pending = setTimeout(() => preview().catch(notify), 150);
}

/** The project's name, for the tab's title (several projects open: which tab is which). */
let project = '';

function markDirty(): void {
  const dirty = syncText !== savedText;
  document.title = `${dirty ? '• ' : ''}${project} · Pantograph`;
  // A field with an error is not in the text: saving now would save the value before it, silently.
  const invalid = document.querySelectorAll('#forms > fieldset > .field.invalid').length;
  ($('save') as HTMLButtonElement).disabled = !dirty || invalid > 0;
  $('save-state').textContent =
    invalid > 0 ? `${invalid} setting${invalid === 1 ? ' has an error' : 's have errors'}: fix ${invalid === 1 ? 'it' : 'them'} to save` : dirty ? 'unsaved changes' : 'saved';
  // Apply writes what the preview shows: not until the preview of the text as it is now is shown.
  ($('apply') as HTMLButtonElement).disabled = applying || invalid > 0 || previewed === undefined || previewed.text !== syncText;
}

async function preview(): Promise<void> {
  const text = syncText;
  let result: { entries: Entry[]; counts?: Record<string, number>; problems: Problem[]; fingerprint?: string };
  try {
    result = await call('preview', { syncText: text });
  } catch (e) {
    // A plan that apply would refuse as a whole, for a reason with no place in a file (`delete` naming
    // a directory): said where the preview would be, and with the problems, as the command line says it.
    if (!(e instanceof ApiError) || e.status !== 422 || text !== syncText) throw e;
    previewed = undefined;
    markDirty();
    const problem: Problem = { severity: 'error', code: e.code ?? 'ERROR', message: e.message, ...(e.hint ? { hint: e.hint } : {}) };
    drawProblems([problem]);
    $('counts').textContent = 'no preview: the plan has an error';
    $('diff').textContent = '';
    $('files').replaceChildren(problemItem(problem));
    return;
  }
  if (text !== syncText) return; // the text changed meanwhile: its own preview follows
  previewed = { text, fingerprint: result.fingerprint };
  markDirty();
  drawProblems(result.problems);
  const counts = Object.entries(result.counts ?? {})
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  $('counts').textContent = counts.join(', ');
  $('diff').textContent = '';
  $('files').replaceChildren(...tree(result.entries));
}

/** The entries as a tree: a row per directory (once), then its files, indented by depth. */
function tree(entries: Entry[]): HTMLElement[] {
  const rows: HTMLElement[] = [];
  const shown = new Set<string>();
  for (const entry of [...entries].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const parts = entry.path.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      const dir = parts.slice(0, depth).join('/');
      if (shown.has(dir)) continue;
      shown.add(dir);
      const row = el('li', { className: 'dir', textContent: `${parts[depth - 1]}/` });
      row.style.paddingLeft = `${(depth - 1) * 1.2 + 5.7}rem`; // past the state column
      rows.push(row);
    }
    // A button in the row: the keyboard reaches every diff (Tab, then Enter or Space).
    const name = el('span', { className: 'name', textContent: parts.at(-1)! });
    name.style.paddingLeft = `${(parts.length - 1) * 1.2}rem`;
    const button = el(
      'button',
      { type: 'button', className: 'row', title: entry.reason ?? '' },
      el('span', { className: `state state-${entry.state}`, textContent: entry.state }),
      name,
    );
    button.setAttribute('aria-label', `${entry.path}: ${entry.state}${entry.reason ? ` (${entry.reason})` : ''}, show the diff`);
    button.setAttribute('aria-controls', 'diff');
    const li = el('li', { title: entry.reason ?? '' }, button);
    li.dataset.path = entry.path;
    li.addEventListener('click', () => {
      $('diff').textContent = entry.diff ?? '(no change)';
      // The row whose diff is shown is marked; the diff brought into sight (below a long list, or the
      // settings, in a narrow window).
      for (const other of $('files').querySelectorAll('button.row[aria-current]')) other.removeAttribute('aria-current');
      button.setAttribute('aria-current', 'true');
      $('diff').scrollIntoView({ block: 'nearest' });
    });
    rows.push(li);
  }
  return rows;
}

/** Errors, then warnings (what `validate` prints: a warning often explains the error beside it), with hints. */
function drawProblems(problems: Problem[]): void {
  const order = (p: Problem) => (p.severity === 'error' ? 0 : 1);
  $('problems').replaceChildren(
    ...[...problems]
      .sort((a, b) => order(a) - order(b))
      .map(problemItem),
  );
}

/** A problem as the command line prints it: `file:line:col: error: message [CODE]`, then its hint. */
function problemItem(p: Problem): HTMLElement {
  const where = p.file ? `${p.file}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}: ` : '';
  const li = el('li', { className: p.severity === 'error' ? 'error' : 'warning' });
  li.append(`${where}${p.severity}: ${p.message} [${p.code}]`);
  if (p.hint) li.append(el('div', { className: 'hint', textContent: `hint: ${p.hint}` }));
  return li;
}

/** Ctrl+S (⌘S) saves, from any field: Save is at the end of a long form. */
document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
    event.preventDefault(); // never the browser's "save the page"
    if (!($('save') as HTMLButtonElement).disabled) $('save').click();
  }
});

$('save').addEventListener(
  'click',
  guarded(async () => {
    const text = syncText ?? '';
    const result = await call<{ saved: boolean; base?: string; problems?: Problem[] }>('save', { syncText: text, base });
    if (result.saved) {
      savedText = text;
      base = result.base ?? base;
    } else drawProblems(result.problems ?? []);
    markDirty();
  }),
);

interface ApplyAnswer {
  ok: boolean;
  message: string;
  base?: string;
  written?: string[];
  conflicts?: string[];
  skipped?: { path: string; state: string; reason: string }[];
  backups?: { path: string; backup: string }[];
  problems?: Problem[];
}

/** An apply running: Apply stays disabled (a second click would be refused and say the opposite). */
let applying = false;

$('apply').addEventListener(
  'click',
  guarded(async () => {
    if (applying) return;
    applying = true;
    markDirty();
    try {
      await applyOnce(false);
    } finally {
      applying = false;
      markDirty();
    }
    await preview();
  }),
);

/**
 * Saves and applies as `apply` does. Files that exist and differ and that Pantograph never wrote (`adopt`)
 * are refused as the command line refuses them without a terminal, nothing written; the page then asks,
 * and applies again with the answer (`--yes`).
 */
async function applyOnce(adopt: boolean): Promise<void> {
  const force = ($('force') as HTMLInputElement).checked;
  const text = syncText ?? '';
  const result$ = $('apply-result');
  result$.textContent = adopt ? 'applying, overwriting the confirmed files…' : 'applying…';
  let result: ApplyAnswer;
  try {
    result = await call<ApplyAnswer>('apply', {
      syncText: text,
      base,
      force,
      ...(adopt ? { adopt: true } : {}),
      ...(previewed?.fingerprint ? { preview: previewed.fingerprint } : {}),
    });
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 409) {
      result$.textContent = '';
      throw e;
    }
    if (e.code === 'ADOPT_UNCONFIRMED' && !adopt) {
      result$.textContent = `not applied: ${e.message}`;
      const files = e.changed.join(', ');
      if (confirm(`${files}: ${e.changed.length === 1 ? 'this file exists' : 'these files exist'}, Pantograph never wrote ${e.changed.length === 1 ? 'it' : 'them'}, and the template's output differs (see the preview's diff).\n\nOverwrite (as \`apply --yes\`)?`)) {
        await applyOnce(true);
        return;
      }
      result$.textContent = `not applied: ${e.message} (${files}); nothing was written`;
      return;
    }
    result$.textContent = 'not applied'; // the notice says why, and what to do
    notify(e);
    return;
  }
  if (result.problems) drawProblems(result.problems); // refused: nothing written
  else {
    savedText = text;
    base = result.base ?? base;
  }
  const lines = [
    result.ok
      ? `${result.message || 'nothing to change'}${result.written?.length ? `: ${result.written.join(', ')}` : ''}`
      : `not applied: ${result.message ?? ''}${result.conflicts?.length ? ` (conflicts: ${result.conflicts.join(', ')})` : ''}`,
    ...(result.skipped ?? []).map((s) => `left alone: ${s.path} (${s.reason})${s.state === 'edited' ? ': tick overwrite hand edits to replace it' : ''}`),
    ...(result.backups ?? []).map((b) => `${b.path} had your changes: saved as ${b.backup}`),
  ];
  result$.replaceChildren(...lines.map((l) => el('div', { textContent: l })));
}

/** Starts again from `.sync.yml` as it is on disk: the page's unsaved edits are dropped. */
$('reload').addEventListener(
  'click',
  guarded(async () => {
    $('notice').hidden = true;
    $('apply-result').textContent = '';
    syncText = undefined;
    await refresh();
  }),
);
/** Leaving the page (Reload, Back, a link) with unsaved edits asks first: they would be lost. */
window.addEventListener('beforeunload', (event) => {
  if (syncText !== undefined && syncText !== savedText) {
    event.preventDefault();
    event.returnValue = ''; // older browsers ask only with it set
  }
});

$('notice-close').addEventListener('click', () => {
  $('notice').hidden = true;
});
/** Escape dismisses the notice, as a dialog's would be (the keyboard need not go up to its ×). */
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !$('notice').hidden) $('notice').hidden = true;
});


/** A project opens the catalogue, settings and preview; a template repository, the author's view. */
async function start(): Promise<void> {
  if (token === '') {
    // Opened without the token (a bookmark, a retyped address): nothing can be asked of the server.
    throw new Error('this page needs the token `pantograph ui` printed: open the URL it printed (…/?token=…), or run `pantograph ui` again');
  }
  const { mode } = await call<{ mode: 'project' | 'author' }>('mode', {});
  if (mode === 'author') {
    for (const link of document.querySelectorAll('header a.skip')) link.remove(); // the project's panes
    await startAuthor(call, document.querySelector('main')!, $('project'), notify);
  } else await refresh();
}
guarded(start)();
