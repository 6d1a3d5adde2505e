/** The catalogue: every template the project's sources offer, applied or not, with Add or Remove. */
import { call } from './api-client.js';
import { $, el } from './dom.js';
import { page } from './page-state.js';
import { guarded } from './status.js';
import type { CatalogueEntry } from './types.js';

export function drawCatalogue(entries: CatalogueEntry[], reload: () => Promise<void>): void {
  $('catalogue').replaceChildren(
    ...entries.map((t) => {
      const button = el('button', { textContent: t.applied ? 'Remove' : 'Add', className: 'toggle' });
      // Heard as "Remove rubocop", not as one of a dozen "Remove"s.
      button.setAttribute('aria-label', `${t.applied ? 'Remove' : 'Add'} ${t.name}`);
      button.dataset.template = t.name;
      button.addEventListener('click', guarded(() => toggle(t.name, !t.applied, reload)));
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

/** Adds or removes a template in the page's `.sync.yml` text (as `pantograph add template` edits it). */
async function toggle(template: string, add: boolean, reload: () => Promise<void>): Promise<void> {
  const edit = await call<{ text: string }>('edit', { kind: add ? 'add' : 'remove', template, syncText: page.syncText });
  page.syncText = edit.text;
  await reload();
  // The catalogue is drawn again: the keyboard stays on the template's button (now the other action).
  document.querySelector<HTMLElement>(`#catalogue button[data-template="${CSS.escape(template)}"]`)?.focus();
}
