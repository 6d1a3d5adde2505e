/**
 * Save and Apply. Each says what it is based on (the `.sync.yml` the page loaded, the preview it shows):
 * the server refuses it when the project changed meanwhile, writing nothing.
 */
import { ApiError, call } from './api-client.js';
import { $, el } from './dom.js';
import { editsSettled, page } from './page-state.js';
import { preview } from './preview.js';
import { markPageValuesSaved } from './settings-form.js';
import { drawProblems, guarded, markDirty, notify } from './status.js';
import type { ApplyAnswer, Problem } from './types.js';

export function wireSaveAndApply(): void {
  $('save').addEventListener(
    'click',
    guarded(async () => {
      await editsSettled();
      // The last edit had an error (its field says it), or left nothing to save.
      if ($<HTMLButtonElement>('save').disabled) return;
      const text = page.syncText ?? '';
      const result = await call<{ saved: boolean; base?: string; error?: string; problems?: Problem[] }>('save', { syncText: text, base: page.base });
      if (result.saved) {
        page.savedText = text;
        page.base = result.base ?? page.base;
        markPageValuesSaved();
      } else drawProblems(result.problems ?? []);
      markDirty();
      // Refused for its problems (listed under Settings): said as `apply` says it, not only "unsaved".
      if (!result.saved) $('save-state').textContent = `not saved: ${result.error ?? 'the plan has errors'}`;
    }),
  );
  $('apply').addEventListener(
    'click',
    guarded(async () => {
      if (page.applying) return;
      // Apply is disabled while it runs, which drops the keyboard's focus to the page's start.
      const hadFocus = document.activeElement === $('apply');
      page.applying = true;
      markDirty();
      try {
        await editsSettled();
        // Apply writes what the preview shows: not a text with an error, nor one whose preview is not shown.
        const refused = document.querySelector('#forms > fieldset > .field.invalid')
          ? 'a setting has an error: fix it at its field'
          : page.previewed?.text !== page.syncText
            ? 'the preview of your last change is not shown yet: apply once it is'
            : page.previewed?.fingerprint === undefined
              ? 'the plan has errors (listed under Settings): fix them first'
              : undefined;
        if (refused) {
          $('apply-result').textContent = `not applied: ${refused}`;
          return;
        }
        await applyOnce(false);
      } finally {
        page.applying = false;
        markDirty();
      }
      await preview();
      if (hadFocus && document.activeElement === document.body) keepFocusAtApply();
    }),
  );
}

/** The keyboard goes on from Apply, or from its result while Apply waits for a preview. */
function keepFocusAtApply(): void {
  const apply = $<HTMLButtonElement>('apply');
  if (!apply.disabled) return apply.focus();
  const result = $('apply-result');
  result.tabIndex = -1;
  result.focus();
}

/**
 * Saves and applies as `apply` does. Files that exist and differ and that Pantograph never wrote (`adopt`)
 * are refused as the command line refuses them without a terminal, nothing written; the page then asks,
 * and applies again with the answer (`--yes`).
 */
async function applyOnce(adopt: boolean): Promise<void> {
  const force = ($('force') as HTMLInputElement).checked;
  const text = page.syncText ?? '';
  const result$ = $('apply-result');
  result$.textContent = adopt ? 'applying, overwriting the confirmed files…' : 'applying…';
  let result: ApplyAnswer;
  try {
    result = await call<ApplyAnswer>('apply', {
      syncText: text,
      base: page.base,
      force,
      ...(adopt ? { adopt: true } : {}),
      ...(page.previewed?.fingerprint ? { preview: page.previewed.fingerprint } : {}),
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
      // Declined: the files stay as they are (the server's message would say "nothing was written" twice).
      const n = e.changed.length;
      result$.textContent = `not applied: kept ${files} as ${n === 1 ? 'it is' : 'they are'} (Pantograph never wrote ${n === 1 ? 'it' : 'them'}; the template's output differs): nothing was written`;
      return;
    }
    result$.textContent = 'not applied'; // the notice says why, and what to do
    notify(e);
    return;
  }
  if (result.problems) drawProblems(result.problems); // refused: nothing written
  else {
    page.savedText = text;
    page.base = result.base ?? page.base;
    markPageValuesSaved();
  }
  result$.replaceChildren(...resultLines(result).map((l) => el('div', { textContent: l })));
}

/** What an apply did: the files written, those left alone (hand edits) and the backups made. */
function resultLines(result: ApplyAnswer): string[] {
  return [
    result.ok
      ? `${result.message || 'nothing to change'}${result.written?.length ? `: ${result.written.join(', ')}` : ''}`
      : `not applied: ${result.message ?? ''}`,
    ...(result.conflictNotes ?? []).map((c) => `conflict ${c.path}: ${c.note}`),
    ...(result.skipped ?? []).map((s) => `left alone: ${s.path} (${s.reason})${s.state === 'edited' ? ': tick overwrite hand edits to replace it' : ''}`),
    ...(result.backups ?? []).map((b) => `${b.path} had your changes: saved as ${b.backup}`),
  ];
}
