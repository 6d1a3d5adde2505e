/**
 * The preview: what apply would do with the page's text, not yet saved (every path with its state), and
 * the diff of the row picked.
 */
import { ApiError, call } from './api-client.js';
import { $, el } from './dom.js';
import { page } from './page-state.js';
import { drawProblems, markDirty, notify, problemItem } from './status.js';
import type { Entry, Problem } from './types.js';

export async function preview(): Promise<void> {
  const text = page.syncText;
  let result: { entries: Entry[]; counts?: Record<string, number>; problems: Problem[]; fingerprint?: string };
  try {
    result = await call('preview', { syncText: text });
  } catch (e) {
    // A plan that apply would refuse as a whole, for a reason with no place in a file (`delete` naming
    // a directory): said where the preview would be, and with the problems, as the command line says it.
    if (!(e instanceof ApiError) || e.status !== 422 || text !== page.syncText) throw e;
    page.previewed = undefined;
    markDirty();
    const problem: Problem = { severity: 'error', code: e.code ?? 'ERROR', message: e.message, ...(e.hint ? { hint: e.hint } : {}) };
    drawProblems([problem]);
    $('counts').textContent = 'no preview: the plan has an error';
    $('diff').textContent = '';
    $('files').replaceChildren(problemItem(problem));
    return;
  }
  if (text !== page.syncText) return; // the text changed meanwhile: its own preview follows
  page.previewed = { text, fingerprint: result.fingerprint };
  markDirty();
  drawProblems(result.problems);
  const counts = Object.entries(result.counts ?? {})
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${state}`);
  // A plan with errors has no preview, and Apply is off (no fingerprint): said as `apply` says it, not a
  // blank pane with Apply on (whose click said only "not applied:").
  const errors = result.problems.filter((p) => p.severity === 'error').length;
  $('counts').textContent =
    result.fingerprint === undefined && errors > 0
      ? `no preview: ${errors === 1 ? '1 error' : `${errors} errors`} in the plan (listed under Settings): fix ${errors === 1 ? 'it' : 'them'} to apply`
      : counts.join(', ');
  $('diff').textContent = '';
  $('files').replaceChildren(...tree(result.entries));
}

let pending: ReturnType<typeof setTimeout> | undefined;

/** A preview soon: the last of edits made in quick succession is previewed, once. */
export function schedulePreview(): void {
  clearTimeout(pending);
  pending = setTimeout(() => preview().catch(notify), 150);
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
    rows.push(fileRow(entry, parts));
  }
  return rows;
}

/** A file's row: a button (the keyboard reaches every diff: Tab, then Enter or Space) that shows its diff. */
function fileRow(entry: Entry, parts: string[]): HTMLElement {
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
  return li;
}
