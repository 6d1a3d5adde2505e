/**
 * A V1 or modulesync `.sync.yml` in the page: its keys are files of a repository's ERB, not templates, so
 * the catalogue and the settings forms are empty. Said where they would be, rather than left blank; the
 * preview and Apply work as for any project.
 */
import { $, el } from './dom.js';
import type { V1Repository } from './types.js';

export function drawV1Note(v1: V1Repository): void {
  const what = v1.kind === 'modulesync' ? 'the modulesync configuration' : 'the V1 template repository';
  const named =
    v1.origin === '.pantograph.lock'
      ? ', which an earlier run recorded in .pantograph.lock'
      : v1.origin === 'metadata.json'
        ? " (metadata.json's template-url)"
        : ' (--template-url)';
  $('catalogue').replaceChildren(
    el('li', {
      className: 'v1-note',
      textContent: `This .sync.yml is V1: its keys are files of ${what} ${v1.url}${named}, not templates, so there are none to add or remove here.`,
    }),
  );
  $('forms').replaceChildren(
    el('p', {
      className: 'v1-note',
      textContent:
        "No settings forms: no schema describes what the repository's ERB reads. Edit .sync.yml in an editor, then reload this page; the preview shows what it renders, and Apply writes it.",
    }),
  );
}
