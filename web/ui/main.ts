/**
 * The web interface's page (served by `pantograph ui`): the template catalogue, a settings form per
 * applied template generated from its JSON Schema, and a live preview of what apply would do with the
 * unsaved settings. Every change goes through the server (src/ui/api.ts), which edits `.sync.yml` keeping
 * its comments; the page holds the edited text until it is saved or applied. A save or an apply says what
 * it is based on (the `.sync.yml` the page loaded, the preview it shows): the server refuses it when the
 * project changed meanwhile, and the page then offers to reload.
 *
 * This module loads the project and wires the page; each part is a module of its own: the API client
 * (api-client.ts), the catalogue, the settings form (settings-form.ts, setting-controls.ts), the preview
 * and its diffs, Save and Apply (save-apply.ts), and what the page says (status.ts).
 */

import { ApiError, call, token } from './api-client.js';
import { startAuthor } from './author.js';
import { drawCatalogue } from './catalogue.js';
import { $ } from './dom.js';
import { page } from './page-state.js';
import { preview } from './preview.js';
import { wireSaveAndApply } from './save-apply.js';
import { drawForms } from './settings-form.js';
import { drawProblems, guarded, markDirty, notify } from './status.js';
import type { CatalogueEntry, Form, Problem, V1Repository } from './types.js';
import { drawV1Note } from './v1-note.js';

async function refresh(): Promise<void> {
  const state = await call<{
    project: string;
    syncText: string;
    catalogue?: CatalogueEntry[];
    forms: Form[];
    problems: Problem[];
    base?: string;
    error?: string;
    hint?: string;
    v1?: V1Repository;
  }>('state', page.syncText === undefined ? {} : { syncText: page.syncText });
  if (state.catalogue === undefined) {
    // The project does not load (.sync.yml's YAML, a source that cannot be fetched...): what and where,
    // as the command line says it; fixed in an editor, Reload reads it again.
    $('catalogue').replaceChildren();
    $('forms').replaceChildren();
    $('files').replaceChildren();
    $('diff').textContent = '';
    drawProblems(state.problems ?? []);
    const first = state.problems?.find((p) => p.severity === 'error');
    notify(new ApiError(422, `the project does not load: ${state.error ?? first?.message ?? 'see the problems'}`, 'LOAD', state.hint ?? 'fix it (the problems are listed under Settings), then reload'), true);
    return;
  }
  page.loaded = true;
  if (page.syncText === undefined) {
    page.savedText = state.syncText;
    page.base = state.base ?? '';
  }
  page.syncText = state.syncText;
  page.forms = state.forms;
  $('project').textContent = state.project;
  page.project = state.project;
  drawCatalogue(state.catalogue, refresh);
  drawForms(refresh);
  if (state.v1 !== undefined) drawV1Note(state.v1);
  drawProblems(state.problems);
  markDirty();
  await preview();
}

/** Ctrl+S (⌘S) saves, from any field: Save is at the end of a long form. */
document.addEventListener('keydown', (event) => {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
    event.preventDefault(); // never the browser's "save the page"
    if (!($('save') as HTMLButtonElement).disabled) $('save').click();
  }
});

wireSaveAndApply();

/** Starts again from `.sync.yml` as it is on disk: the page's unsaved edits are dropped. */
$('reload').addEventListener(
  'click',
  guarded(async () => {
    $('notice').hidden = true;
    $('apply-result').textContent = '';
    page.syncText = undefined;
    await refresh();
  }),
);
/** Leaving the page (Reload, Back, a link) with unsaved edits asks first: they would be lost. */
window.addEventListener('beforeunload', (event) => {
  if (page.syncText !== undefined && page.syncText !== page.savedText) {
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
