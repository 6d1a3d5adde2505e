/**
 * The author's view of `pantograph ui` on a template repository: pick a template file and edit it; each
 * pause saves it and runs a test case of that template (its first, or the one picked), whose output is
 * shown beside the expected one.
 */

interface Repository {
  dir: string;
  /** Strict variables as `pantograph ui` was started (`--no-strict`: false). */
  strict: boolean;
  templates: { name: string; files: string[]; cases: string[] }[];
}

interface PageProblem {
  severity?: string;
  message: string;
  code: string;
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
}

interface CaseRun {
  status: string;
  differences: { path: string; kind: string; diff: string }[];
  problems: PageProblem[];
  outputs: { actual: Record<string, string>; expected: Record<string, string> };
}

/**
 * A save's answer: the new `base` (with a warning for a template.json whose `requires` leaves this
 * Pantograph out), or (a template.json that would not load) why it was not written.
 */
interface SaveAnswer {
  base?: string;
  error?: string;
  hint?: string;
  problems?: PageProblem[];
  warning?: { message: string; problems: PageProblem[] };
}

type Call = <T>(path: string, body: object) => Promise<T>;

/** Says why a request failed (the page's notice); the author's view adds its own actions. */
type Notify = (error: unknown) => void;

export async function startAuthor(call: Call, main: HTMLElement, title: HTMLElement, notify: Notify): Promise<void> {
  const repo = await call<Repository>('author/repository', {});
  title.textContent = `${repo.dir} (template repository)`;
  document.title = `${repo.dir.split('/').filter(Boolean).at(-1) ?? repo.dir} (templates) · Pantograph`;
  const list = document.createElement('section');
  list.className = 'pane';
  list.id = 'author-files';
  const editorPane = document.createElement('section');
  editorPane.className = 'pane';
  editorPane.innerHTML =
    '<h2 id="author-file">Pick a file</h2><textarea id="author-editor" spellcheck="false" aria-labelledby="author-file" disabled></textarea><div id="author-saved" aria-live="polite"></div><p id="author-drafts" aria-live="polite"></p><div id="author-summary" aria-live="polite"></div>';
  const result = document.createElement('section');
  result.className = 'pane';
  // Strict variables as in the playground: unticked, an unknown variable renders empty with a warning
  // (`pantograph test --no-strict`, Puppet 7's default).
  result.innerHTML =
    '<h2>Test case <small id="author-case">(pick one)</small></h2><label class="option" title="As pantograph test: an unknown variable is an error. Unticked (--no-strict, Puppet 7\'s default), it renders empty, with a warning."><input type="checkbox" id="author-strict" /> Strict variables</label><div id="author-result"></div>';
  main.replaceChildren(list, editorPane, result);
  const editor = editorPane.querySelector('textarea')!;
  const strict = result.querySelector<HTMLInputElement>('#author-strict')!;
  strict.checked = repo.strict;
  strict.addEventListener('change', () => void runCase().catch(notify));
  /** The file open, and the `base` a save of it says it was edited from (the file as loaded or saved). */
  let open: { template: string; source: string; base: string } | undefined;
  let chosenCase: { template: string; name: string } | undefined;

  const heading = (text: string) => Object.assign(document.createElement('h3'), { textContent: text });
  list.append(Object.assign(document.createElement('h2'), { textContent: 'Templates' }));
  for (const t of repo.templates) {
    list.append(heading(t.name));
    const ul = document.createElement('ul');
    for (const source of t.files) {
      const li = item(source, 'author-file', async () => {
        await flush(); // the last edits of the file open before
        await load(t.name, source);
        // The case shown tests the template being edited: another template's file switches to its case.
        if (chosenCase?.template !== t.name) {
          chosenCase = t.cases[0] === undefined ? undefined : { template: t.name, name: t.cases[0] };
        }
        await runCase();
      });
      li.dataset.template = t.name;
      li.dataset.source = source;
      ul.append(li);
    }
    for (const name of t.cases) {
      const li = item(`test: ${name}`, 'author-case', async () => {
        chosenCase = { template: t.name, name };
        await runCase();
      });
      li.dataset.case = name;
      ul.append(li);
    }
    list.append(ul);
  }

  /** A row of the lists: a button inside, so that the keyboard reaches it (Tab, Enter, Space). */
  function item(text: string, className: string, action: () => Promise<void>): HTMLLIElement {
    const li = Object.assign(document.createElement('li'), { className });
    const button = Object.assign(document.createElement('button'), { textContent: text, type: 'button' });
    button.className = 'row';
    li.append(button);
    li.addEventListener('click', () => void action().catch(notify));
    return li;
  }

  /**
   * Edits the server refused (a template.json that would not load, a file changed on disk), by file: kept
   * on the page when another file opens, and shown again, with why, when it opens again. Each keeps the
   * `base` it was edited from, so that a file changed on disk meanwhile is never overwritten by it.
   */
  const drafts = new Map<string, { text: string; base: string }>();
  const keyOf = (f: { template: string; source: string }) => `${f.template}/${f.source}`;

  /** Marks the files with a draft in the list, and names them under the editor. */
  function showDrafts(): void {
    for (const li of list.querySelectorAll<HTMLElement>('li.author-file')) {
      const draft = drafts.has(`${li.dataset.template}/${li.dataset.source}`);
      const button = li.querySelector('button')!;
      button.querySelector('.draft-mark')?.remove();
      if (draft) button.append(Object.assign(document.createElement('small'), { className: 'draft-mark', textContent: ' (not saved)' }));
      li.classList.toggle('has-draft', draft);
    }
    const others = [...drafts.keys()].filter((k) => !open || k !== keyOf(open));
    document.getElementById('author-drafts')!.textContent =
      others.length === 0 ? '' : `Not saved, kept on this page: ${others.join(', ')}. Open it to fix it; leaving the page loses it.`;
  }

  async function load(template: string, source: string): Promise<void> {
    const { text, base } = await call<{ text: string; base: string }>('author/file', { template, source });
    // A draft of this file comes back with the base it was edited from, and is saved again (or said again why not).
    const draft = drafts.get(keyOf({ template, source }));
    open = { template, source, base: draft?.base ?? base };
    // The file open is marked in the list.
    for (const li of list.querySelectorAll<HTMLElement>('li.author-file')) {
      const button = li.querySelector('button')!;
      if (li.dataset.template === template && li.dataset.source === source) button.setAttribute('aria-current', 'true');
      else button.removeAttribute('aria-current');
    }
    unsaved = draft ? { template, source, text: draft.text } : undefined;
    refused = false;
    editor.value = draft?.text ?? text;
    editor.disabled = false;
    document.getElementById('author-file')!.textContent = `${template}/${source}`;
    document.getElementById('author-saved')!.replaceChildren();
    showDrafts();
    if (draft) await flush();
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The text typed and the file it belongs to, not saved yet (another file may open before the pause). */
  let unsaved: { template: string; source: string; text: string } | undefined;
  /** The file changed on disk after it was loaded: nothing is saved until the author reloads it. */
  let refused = false;
  editor.addEventListener('input', () => {
    if (!open) return;
    unsaved = { template: open.template, source: open.source, text: editor.value };
    if (refused) return;
    clearTimeout(timer);
    // A save refused (a template.json that would not load) leaves the case as last run: nothing changed.
    timer = setTimeout(() => void flush().then((saved) => (saved ? runCase() : undefined)).catch(notify), 300);
  });
  window.addEventListener('beforeunload', (event) => {
    if (unsaved || drafts.size > 0) event.preventDefault();
  });

  /** Saves the edits not saved yet; false when the server refused them (they stay unsaved). */
  async function flush(): Promise<boolean> {
    clearTimeout(timer);
    const edit = unsaved;
    if (!edit || !open) return true;
    const base = open.base;
    // Refused for a change on disk: nothing saves until a reload, but the edit is kept.
    if (refused) return keepDraft(edit, base);
    const saved = document.getElementById('author-saved')!;
    try {
      const answer = await call<SaveAnswer>('author/save', { ...edit, base });
      if (answer.base === undefined) {
        // Not written: each problem at its line of the text typed, the file on disk as last saved.
        const said = Object.assign(document.createElement('p'), { className: 'error', textContent: `not saved: ${answer.error ?? 'refused'}` });
        said.id = 'author-not-saved';
        const hint = Object.assign(document.createElement('div'), { className: 'hint', textContent: answer.hint ?? '' });
        saved.replaceChildren(said, ...(answer.problems ?? []).map((p) => problemLine(p)), hint);
        return keepDraft(edit, base);
      }
      if (open.template === edit.template && open.source === edit.source) open.base = answer.base;
      if (unsaved === edit) unsaved = undefined;
      drafts.delete(keyOf(edit));
      showDrafts();
      saved.textContent = `saved ${new Date().toLocaleTimeString()}`;
      if (answer.warning) {
        const warned = Object.assign(document.createElement('p'), { className: 'warning', textContent: answer.warning.message });
        warned.id = 'author-saved-warning';
        saved.append(warned, ...answer.warning.problems.map((p) => problemLine(p, 'warning')));
      }
    } catch (e) {
      const error = e as Error & { code?: string; hint?: string };
      if (error.code !== 'FILE_CHANGED') throw e;
      refused = true;
      const reload = Object.assign(document.createElement('button'), { textContent: 'Reload the file', type: 'button' });
      reload.id = 'author-reload';
      reload.addEventListener('click', () => {
        refused = false;
        if (!open) return;
        // Reloading starts from the file as it is now: the edits refused are dropped (the hint said so).
        drafts.delete(keyOf(open));
        void load(open.template, open.source).then(runCase).catch(notify);
      });
      const message = Object.assign(document.createElement('span'), { className: 'error', textContent: `not saved: ${error.message}: ${error.hint ?? ''} ` });
      saved.replaceChildren(message, reload);
      return keepDraft(edit, base);
    }
    return true;
  }

  /** Keeps a refused edit as its file's draft (see `drafts`); false, as flush answers for an edit not saved. */
  function keepDraft(edit: { template: string; source: string; text: string }, base: string): false {
    drafts.set(keyOf(edit), { text: edit.text, base });
    showDrafts();
    return false;
  }

  /** A problem as `pantograph test` prints it; a place in the file open is a button that puts the cursor there. */
  function problemLine(p: PageProblem, className = 'error'): HTMLParagraphElement {
    const line = Object.assign(document.createElement('p'), { className });
    const where = p.file ? `${p.file}${p.line !== undefined ? `:${p.line}:${p.column}` : ''}` : '';
    if (where && open && p.file === `${open.template}/${open.source}` && p.line !== undefined) {
      const go = Object.assign(document.createElement('button'), { type: 'button', className: 'go', textContent: where });
      go.setAttribute('aria-label', `${where}: put the cursor there`);
      const at = { line: p.line, column: p.column ?? 1 };
      go.addEventListener('click', () => goTo(at.line, at.column));
      line.append(go, ': ');
    } else if (where) line.append(`${where}: `);
    line.append(`${p.severity ?? 'error'}: ${p.message} [${p.code}]`);
    if (p.hint) line.append(Object.assign(document.createElement('div'), { className: 'hint', textContent: `hint: ${pageHint(p.hint)}` }));
    return line;
  }

  /** Puts the editor's cursor at a 1-based line and column, and the keyboard there. */
  function goTo(line: number, column: number): void {
    const lines = editor.value.split('\n');
    let offset = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
    offset += column - 1;
    editor.focus();
    editor.setSelectionRange(offset, offset);
  }

  /** Runs are numbered: a slow run's answer never replaces a later one's. */
  let runs = 0;
  async function runCase(): Promise<void> {
    const box = document.getElementById('author-result')!;
    const caseLabel = document.getElementById('author-case')!;
    const mine = ++runs;
    if (!chosenCase) {
      caseLabel.textContent = open ? `(${open.template} has no test case: add one under ${open.template}/tests/<case>/)` : '(pick one)';
      document.getElementById('author-summary')!.textContent = '';
      box.replaceChildren();
      return;
    }
    caseLabel.textContent = `${chosenCase.template}: ${chosenCase.name}`;
    const run = await call<CaseRun>('author/case', { template: chosenCase.template, case: chosenCase.name, strict: strict.checked });
    if (mine !== runs) return;
    const status = Object.assign(document.createElement('p'), { textContent: run.status, className: `case-${run.status}` });
    status.id = 'author-status';
    // As `pantograph test` prints them; a place in the file open is a button that puts the cursor there.
    const problems = run.problems.map((p) => problemLine(p));
    // Under the editor too: in a narrow window the case's pane is out of sight while one types.
    const first = run.problems[0];
    document.getElementById('author-summary')!.textContent =
      `test ${chosenCase.name}: ${run.status}${first ? ` (${first.message})` : run.differences.length > 0 ? ` (${run.differences.length === 1 ? '1 file differs' : `${run.differences.length} files differ`})` : ''}`;
    const differing = new Set(run.differences.map((d) => d.path));
    const paths = [...new Set([...Object.keys(run.outputs.expected), ...Object.keys(run.outputs.actual)])].sort(
      (a, b) => Number(differing.has(b)) - Number(differing.has(a)) || (a < b ? -1 : 1),
    );
    const files = paths.map((path) => {
      const row = document.createElement('div');
      row.className = `side-by-side${differing.has(path) ? ' differs' : ''}`;
      row.dataset.path = path;
      const side = (label: string, text: string | undefined) => {
        const col = document.createElement('div');
        col.append(
          Object.assign(document.createElement('h4'), { textContent: `${label}: ${path}` }),
          Object.assign(document.createElement('pre'), { textContent: text ?? '(no file)', className: label }),
        );
        return col;
      };
      row.append(side('expected', run.outputs.expected[path]), side('actual', run.outputs.actual[path]));
      return row;
    });
    box.replaceChildren(status, ...problems, ...files);
  }
}

/** The engine's hint, with `--no-strict` said as the page's control that does the same (as the playground says it). */
function pageHint(hint: string): string {
  return hint.replace(
    /render with strict variables off \(--no-strict\)/,
    'untick Strict variables, above the case (it then renders empty, with a warning, as `pantograph test --no-strict`)',
  );
}
