/**
 * The author's view of `pantograph ui` on a template repository: pick a template file and edit it; each
 * pause saves it and runs the chosen test case, whose output is shown beside the expected one.
 */

interface Repository {
  dir: string;
  templates: { name: string; files: string[]; cases: string[] }[];
}

interface CaseRun {
  status: string;
  differences: { path: string; kind: string; diff: string }[];
  problems: { message: string; code: string; file?: string; line?: number; column?: number }[];
  outputs: { actual: Record<string, string>; expected: Record<string, string> };
}

type Call = <T>(path: string, body: object) => Promise<T>;

export async function startAuthor(call: Call, main: HTMLElement, title: HTMLElement): Promise<void> {
  const repo = await call<Repository>('author/repository', {});
  title.textContent = `${repo.dir} (template repository)`;
  const list = document.createElement('section');
  list.className = 'pane';
  list.id = 'author-files';
  const editorPane = document.createElement('section');
  editorPane.className = 'pane';
  editorPane.innerHTML = '<h2 id="author-file">Pick a file</h2><textarea id="author-editor" spellcheck="false" disabled></textarea><div id="author-saved"></div>';
  const result = document.createElement('section');
  result.className = 'pane';
  result.innerHTML = '<h2>Test case <small id="author-case">(pick one)</small></h2><div id="author-result"></div>';
  main.replaceChildren(list, editorPane, result);
  const editor = editorPane.querySelector('textarea')!;
  let open: { template: string; source: string } | undefined;
  let chosenCase: { template: string; name: string } | undefined;

  const heading = (text: string) => Object.assign(document.createElement('h3'), { textContent: text });
  list.append(Object.assign(document.createElement('h2'), { textContent: 'Templates' }));
  for (const t of repo.templates) {
    list.append(heading(t.name));
    const ul = document.createElement('ul');
    for (const source of t.files) {
      const li = Object.assign(document.createElement('li'), { textContent: source, className: 'author-file' });
      li.dataset.template = t.name;
      li.dataset.source = source;
      li.addEventListener('click', async () => {
        const { text } = await call<{ text: string }>('author/file', { template: t.name, source });
        open = { template: t.name, source };
        editor.value = text;
        editor.disabled = false;
        document.getElementById('author-file')!.textContent = `${t.name}/${source}`;
        if (!chosenCase && t.cases[0]) chosenCase = { template: t.name, name: t.cases[0] };
        await runCase();
      });
      ul.append(li);
    }
    for (const name of t.cases) {
      const li = Object.assign(document.createElement('li'), { textContent: `test: ${name}`, className: 'author-case' });
      li.dataset.case = name;
      li.addEventListener('click', async () => {
        chosenCase = { template: t.name, name };
        await runCase();
      });
      ul.append(li);
    }
    list.append(ul);
  }

  let timer: ReturnType<typeof setTimeout> | undefined;
  editor.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      if (!open) return;
      await call('author/save', { ...open, text: editor.value });
      document.getElementById('author-saved')!.textContent = `saved ${new Date().toLocaleTimeString()}`;
      await runCase();
    }, 300);
  });

  async function runCase(): Promise<void> {
    if (!chosenCase) return;
    document.getElementById('author-case')!.textContent = `${chosenCase.template}: ${chosenCase.name}`;
    const run = await call<CaseRun>('author/case', { template: chosenCase.template, case: chosenCase.name });
    const box = document.getElementById('author-result')!;
    const status = Object.assign(document.createElement('p'), { textContent: run.status, className: `case-${run.status}` });
    status.id = 'author-status';
    const problems = run.problems.map((p) =>
      Object.assign(document.createElement('p'), {
        className: 'error',
        textContent: `${p.file ? `${p.file}:${p.line}:${p.column}: ` : ''}${p.message} [${p.code}]`,
      }),
    );
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
