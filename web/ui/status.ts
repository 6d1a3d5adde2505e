/**
 * What the page says about itself: the notice above the panes (why a request failed, and Reload when that
 * helps), the save state and what Save and Apply allow, and the problems as `validate` lists them.
 */
import { ApiError } from './api-client.js';
import { $, el } from './dom.js';
import { page } from './page-state.js';
import type { Problem } from './types.js';

/**
 * Says why a request failed, above the panes. A refusal because `.sync.yml` changed, and a project that
 * does not load, offer to reload `.sync.yml` (once fixed in an editor).
 */
export function notify(error: unknown, reload = false): void {
  const api = error instanceof ApiError ? error : undefined;
  $('notice-text').textContent = api?.hint ? `${api.message}: ${api.hint}` : String((error as Error).message ?? error);
  $('reload').hidden = !(reload || api?.code === 'SYNC_CHANGED' || api?.status === 422 || (api !== undefined && !page.loaded));
  $('notice').hidden = false;
}

/** Runs a user's action; its failure is shown, not lost. */
export function guarded(action: () => Promise<void>): () => void {
  return () => void action().catch(notify);
}

/** The title, the save state, and whether Save and Apply can be used, for the page's text as it is now. */
export function markDirty(): void {
  const dirty = page.syncText !== page.savedText;
  document.title = `${dirty ? '• ' : ''}${page.project} · Pantograph`;
  // A field with an error is not in the text: saving now would save the value before it, silently.
  const invalid = document.querySelectorAll('#forms > fieldset > .field.invalid').length;
  ($('save') as HTMLButtonElement).disabled = !dirty || invalid > 0;
  $('save-state').textContent =
    invalid > 0 ? `${invalid} setting${invalid === 1 ? ' has an error' : 's have errors'}: fix ${invalid === 1 ? 'it' : 'them'} to save` : dirty ? 'unsaved changes' : 'saved';
  // Apply writes what the preview shows: not until the preview of the text as it is now is shown.
  ($('apply') as HTMLButtonElement).disabled =
    page.applying ||
    invalid > 0 ||
    page.previewed === undefined ||
    page.previewed.text !== page.syncText ||
    page.previewed.fingerprint === undefined; // the plan has errors: there is nothing to apply
}

/** Errors, then warnings (what `validate` prints: a warning often explains the error beside it), with hints. */
export function drawProblems(problems: Problem[]): void {
  const order = (p: Problem) => (p.severity === 'error' ? 0 : 1);
  $('problems').replaceChildren(
    ...[...problems]
      .sort((a, b) => order(a) - order(b))
      .map(problemItem),
  );
}

/** A problem as the command line prints it: `file:line:col: error: message [CODE]`, then its hint. */
export function problemItem(p: Problem): HTMLElement {
  const where = p.file ? `${p.file}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}: ` : '';
  const li = el('li', { className: p.severity === 'error' ? 'error' : 'warning' });
  li.append(`${where}${p.severity}: ${p.message} [${p.code}]`);
  if (p.hint) li.append(el('div', { className: 'hint', textContent: `hint: ${p.hint}` }));
  return li;
}
