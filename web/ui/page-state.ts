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
};
