/**
 * What the project's page holds between requests: the `.sync.yml` text as edited (unsaved until Save or
 * Apply), what it was loaded or saved as, and what the preview shown was made from. One object, shared by
 * the modules of the page, so that each reads the current value.
 */
import type { Form } from './types.js';

export const page = {
  /** The page's `.sync.yml` text, with its unsaved edits; undefined until loaded (and on Reload). */
  syncText: undefined as string | undefined,
  /** The text as saved on disk (the page's edits are unsaved while `syncText` differs). */
  savedText: '',
  /** The `.sync.yml` on disk the page's text was edited from, as the server names it (its hash). */
  base: '',
  /** The preview shown: for which text, and its fingerprint (none when the plan had errors). */
  previewed: undefined as { text: string | undefined; fingerprint: string | undefined } | undefined,
  forms: [] as Form[],
  /** The project's name, for the tab's title (several projects open: which tab is which). */
  project: '',
  /** Whether the project loaded once (its catalogue is shown): until then a failure offers a reload. */
  loaded: false,
  /** An apply running: Apply stays disabled (a second click would be refused and say the opposite). */
  applying: false,
  /**
   * Edits of settings on their way to the server (checked, then made to the text): Save and Apply wait for
   * them, or they would write the text before the last change (Ctrl+S right after typing).
   */
  edits: new Set<Promise<void>>(),
};

/** Once every edit on its way is in the page's text. */
export async function editsSettled(): Promise<void> {
  while (page.edits.size > 0) await Promise.allSettled([...page.edits]);
}
