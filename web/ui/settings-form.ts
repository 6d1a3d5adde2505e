/**
 * The settings: a form per applied template, a field per setting with its description, default and where
 * its value comes from. An edit is checked at once (its errors at its field, as validate says them), then
 * made to the page's `.sync.yml` text by the server and previewed.
 */
import { call } from './api-client.js';
import { $, el } from './dom.js';
import { page } from './page-state.js';
import { schedulePreview } from './preview.js';
import { control, label } from './setting-controls.js';
import { guarded, markDirty, notify } from './status.js';
import type { Form, Json, Schema, SettingInfo } from './types.js';

/** Reads the project again and draws the page (after a reset, which changes where values come from). */
type Reload = () => Promise<void>;

export function drawForms(reload: Reload): void {
  $('forms').replaceChildren(
    ...page.forms.map((form) => {
      const fieldset = el('fieldset', {}, el('legend', { textContent: form.template }));
      fieldset.dataset.template = form.template;
      const properties = (form.schema.properties ?? {}) as { [key: string]: Schema };
      for (const info of form.settings) {
        fieldset.append(field(form, info, properties[info.name] ?? {}, reload));
      }
      return fieldset;
    }),
  );
}

/** One input for one setting, from its schema: text, number, checkbox, a choice, or JSON for the rest. */
function field(form: Form, info: SettingInfo, schema: Schema, reload: Reload): HTMLElement {
  const set = Object.hasOwn(form.values, info.name);
  const id = `setting-${form.template}-${info.name}`;
  const own = set ? form.values[info.name] : undefined;
  const { node, read } = control(schema, set ? form.values[info.name]! : info.value, id, own, info.default);
  const error = el('div', { className: 'error', id: `${id}-error` });
  error.setAttribute('aria-live', 'polite');
  const origin = el('div', { className: 'origin' }, `value from ${originText(info)}`, set ? resetButton(form, info, reload) : '');
  node.setAttribute('aria-describedby', error.id);
  const wrapper = el(
    'div',
    { className: 'field' },
    label(`${info.name}: ${info.type}`, node, id),
    node,
    help(info),
    origin,
    form.replaced?.includes(info.name)
      ? el('div', { className: 'replace', textContent: '!replace: this value replaces the inherited one (kept on save)' })
      : '',
    error,
  );
  wrapper.dataset.setting = info.name;
  // A value `.sync.yml` already has wrong (written in an editor): said at its field, with its place.
  const wrong = (form.errors ?? []).filter((e) => e.setting === info.name);
  if (wrong.length > 0) {
    wrapper.classList.add('invalid');
    error.textContent = wrong.map((e) => (e.line !== undefined ? `.sync.yml:${e.line}:${e.column}: ${e.message}` : e.message)).join('; ');
  }
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
      origin.replaceChildren(`value from the default (${shortJson(info.default)}): the field is empty`);
    } else {
      form.values = { ...form.values, [info.name]: value };
      // Set here now: the project's value, which can be reset (its button kept when it has one).
      origin.replaceChildren(PAGE_ORIGIN, origin.querySelector('.reset') ?? resetButton(form, info, reload));
    }
    const edit = changed(form).catch(notify);
    page.edits.add(edit);
    void edit.finally(() => page.edits.delete(edit));
  });
  return wrapper;
}

const PAGE_ORIGIN = 'value from this page (.sync.yml once saved)';
const SAVED_ORIGIN = 'value from .sync.yml (saved from this page)';

/** After a save or an apply: the values set on this page are in `.sync.yml` now, and their fields say so. */
export function markPageValuesSaved(): void {
  for (const origin of document.querySelectorAll<HTMLElement>('#forms .origin')) {
    const text = origin.firstChild;
    if (text?.nodeType === Node.TEXT_NODE && text.textContent === PAGE_ORIGIN) text.textContent = SAVED_ORIGIN;
  }
}

/**
 * For a setting the project sets: takes its key out of `.sync.yml` (the rest of the file kept as it is),
 * so that the value comes again from the template's default or a shared setting. Clearing a text field
 * instead would write an empty text (an emptied number field is a reset: see field()).
 */
function resetButton(form: Form, info: SettingInfo, reload: Reload): HTMLElement {
  const button = el('button', { type: 'button', className: 'reset', textContent: 'reset to default' });
  button.setAttribute('aria-label', `reset ${info.name} to its default (${shortJson(info.default)}): remove it from .sync.yml`);
  button.addEventListener(
    'click',
    guarded(async () => {
      const { [info.name]: _, ...rest } = form.values;
      form.values = rest; // an edit of this form still on its way sends these
      const edit = await call<{ text: string }>('edit', { kind: 'settings', template: form.template, settings: rest, syncText: page.syncText });
      page.syncText = edit.text;
      await reload();
      // The form is drawn again: the keyboard goes on from the setting that was reset.
      const field = document.querySelector(`fieldset[data-template="${CSS.escape(form.template)}"] > .field[data-setting="${CSS.escape(info.name)}"]`);
      field?.querySelector<HTMLElement>('input, select, textarea')?.focus();
    }),
  );
  return button;
}

/** Longer than this, a default is not written out inline (PDK's gem lists run to 3,000 characters). */
const INLINE_DEFAULT = 80;

/**
 * The setting's description and its default: inline when short, else behind a *default* disclosure,
 * pretty-printed. Inline, a long one filled the screen and pushed the field's error out of sight.
 */
function help(info: SettingInfo): HTMLElement {
  const inline = JSON.stringify(info.default) ?? 'none';
  if (inline.length <= INLINE_DEFAULT) {
    return el('div', { className: 'help', textContent: `${info.description ?? ''} (default: ${inline})` });
  }
  const full = el('details', { className: 'default' }, el('summary', { textContent: 'default' }));
  full.append(el('pre', { textContent: JSON.stringify(info.default, null, 2) }));
  return el('div', { className: 'help' }, `${info.description ?? ''} `, full);
}

/** A default as a short text: its JSON, or what it is when that is long. */
function shortJson(value: Json): string {
  const inline = JSON.stringify(value) ?? 'none';
  return inline.length <= INLINE_DEFAULT ? inline : 'shown under the field, "default"';
}

function originText(info: SettingInfo): string {
  const o = info.origin;
  if (!o) return 'nowhere (unset)';
  if (o.layer === 'project' && o.line !== undefined) return `.sync.yml:${o.line}:${o.column}`;
  return o.detail ? `${o.layer} (${o.detail})` : o.layer;
}

/** A setting changed: its errors at once (as validate says them), then the text and the preview. */
async function changed(form: Form): Promise<void> {
  const check = await call<{ errors: { setting: string; message: string }[] }>('check', {
    template: form.template,
    settings: form.values,
    syncText: page.syncText,
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
  const edit = await call<{ text: string }>('edit', { kind: 'settings', template: form.template, settings: form.values, syncText: page.syncText });
  page.syncText = edit.text;
  markDirty();
  schedulePreview();
}
