/**
 * The EPP playground: EPP rendering entirely in the browser, as the user types. Template files (the main
 * one and any it calls with `epp()`, kept in memory), values as YAML or JSON, the output, and every error
 * and warning with its position, underlined in the editor. No server: the engine is Pantograph's own
 * (`src/epp`, which imports nothing from Node), bundled by scripts/build-playground.mjs, and runs in a
 * Web Worker (render-worker.ts) with a time limit, so that a template that does not end never freezes
 * the page: it is stopped and said so.
 */
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import { eppLanguage } from './epp-language.js';
import { pageHint } from './page-hints.js';
import type { WorkerAnswer, WorkerRequest } from './render-worker.js';

const MAIN = 'main.epp';
/** The engine's limit for one render (`EPP_TIME_LIMIT`); past it and a grace, the worker is stopped. */
const TIME_LIMIT_MS = 1000;
const GRACE_MS = 1500;

/** The worker's bundled source, put here by scripts/build-playground.mjs. */
declare const __RENDER_WORKER__: string;

const SAMPLE: Record<string, string> = {
  [MAIN]: `<%- | String $service, Array[Integer] $ports, Boolean $tls = false | -%>
# <%= $service %>, kept in line by Pantograph
<% $ports.each |$port| { -%>
listen <%= $port %><% if $tls and $port == 443 { %> ssl<% } %>;
<% } -%>
<%= epp('partials/footer.epp', { 'name' => $service }) -%>
`,
  'partials/footer.epp': `<%- | String $name | -%>
# end of <%= $name.upcase %>
`,
};

const SAMPLE_VALUES = `service: web
ports: [80, 443]
tls: true
`;

/** What a render found: for the page, and for tests and the benchmark through `window.playground`. */
interface Outcome {
  output: string;
  errors: string[];
  /** Each error's hint, worded for the page (null when it has none): `hints[i]` is that of `errors[i]`. */
  hints: (string | null)[];
  warnings: string[];
  renderMs: number;
}

const files = new Map<string, EditorState>();
let current = MAIN;
let last: Outcome = { output: '', errors: [], hints: [], warnings: [], renderMs: 0 };
let lastGood = '';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Strict variables (`epp render`'s default): unticked, as `--no-strict`, an unknown variable renders empty with a warning. */
const strict = $<HTMLInputElement>('strict');
strict.addEventListener('change', () => schedule());

/** A template's line ends: CRLF for a CRLF template (CodeMirror would join its lines with LF, QA qa21 L1). */
const lineEnds = new Compartment();
const crlfEnds = EditorState.lineSeparator.of('\r\n');

/**
 * Pasting CRLF text into a template with LF line ends makes it a CRLF template, as the file would be: one
 * change, so that the cursor ends after the pasted text and Undo takes the paste back.
 */
const crlfPaste = EditorView.domEventHandlers({
  paste(event, view) {
    const pasted = event.clipboardData?.getData('text/plain') ?? '';
    if (!pasted.includes('\r\n') || view.state.lineBreak === '\r\n') return false;
    const { from, to } = view.state.selection.main;
    view.dispatch({
      changes: { from, to, insert: pasted },
      // A line break is one position, whatever its characters.
      selection: { anchor: from + pasted.replace(/\r\n/g, '\n').length },
      effects: lineEnds.reconfigure(crlfEnds),
      userEvent: 'input.paste',
      scrollIntoView: true,
    });
    return true;
  },
});

const templateView = new EditorView({
  parent: $('template'),
  state: fileState(SAMPLE[MAIN]!),
});
const valuesView = new EditorView({
  parent: $('values'),
  state: EditorState.create({
    doc: SAMPLE_VALUES,
    extensions: [basicSetup, lintGutter(), onChange(), EditorView.contentAttributes.of({ 'aria-label': 'Values (YAML or JSON)' })],
  }),
});
for (const [name, text] of Object.entries(SAMPLE)) files.set(name, fileState(text));
files.set(MAIN, templateView.state);

function fileState(text: string): EditorState {
  const extensions: Extension[] = [
    basicSetup,
    eppLanguage,
    lintGutter(),
    onChange(),
    EditorView.contentAttributes.of({ 'aria-label': 'Template' }),
    lineEnds.of(text.includes('\r\n') ? crlfEnds : []),
    crlfPaste,
  ];
  return EditorState.create({ doc: text, extensions });
}

function onChange() {
  return EditorView.updateListener.of((update) => {
    if (update.docChanged) schedule();
  });
}

let pending = 0;
/** One render per frame, however fast the user types. */
function schedule(): void {
  if (pending) return;
  pending = requestAnimationFrame(() => {
    pending = 0;
    void render();
  });
}

// The worker: one render at a time; a change made meanwhile is rendered when it answers.
let worker = startWorker();
let nextId = 0;
let running: { id: number; timer: ReturnType<typeof setTimeout>; marks: string } | undefined;
let again = false;
/** Who waits for the render of the current files (tests, the benchmark): told when one ends. */
let waiting: (() => void)[] = [];
let timing: { id: number; done: (ms: number) => void } | undefined;

function startWorker(): Worker {
  const url = URL.createObjectURL(new Blob([__RENDER_WORKER__], { type: 'text/javascript' }));
  const w = new Worker(url);
  URL.revokeObjectURL(url);
  w.onmessage = (event: MessageEvent<WorkerAnswer>) => answered(event.data);
  return w;
}

function texts(): Record<string, string> {
  files.set(current, templateView.state);
  return Object.fromEntries([...files].map(([name, state]) => [name, state.doc.sliceString(0, undefined, state.lineBreak)]));
}

/** Renders the files as they are now (after the render running, if one is). */
function render(): Promise<void> {
  const done = new Promise<void>((resolve) => waiting.push(resolve));
  if (running) {
    again = true;
    return done;
  }
  const id = ++nextId;
  const request: WorkerRequest = { id, kind: 'render', texts: texts(), valuesText: valuesView.state.doc.toString(), strict: strict.checked, timeLimitMs: TIME_LIMIT_MS };
  // Past the engine's limit and a grace (a regular expression is one call the limit cannot interrupt),
  // the worker is stopped and a new one started: the page stays usable, and says why.
  const timer = setTimeout(() => stopped(id), TIME_LIMIT_MS + GRACE_MS);
  running = { id, timer, marks: current };
  worker.postMessage(request);
  return done;
}

function stopped(id: number): void {
  if (running?.id !== id) return;
  worker.terminate();
  worker = startWorker();
  const seconds = (TIME_LIMIT_MS + GRACE_MS) / 1000;
  answered({
    id,
    output: '',
    errors: [
      {
        text: `${MAIN}: the render did not end within ${seconds} s and was stopped (a loop or a regular expression that does not end?) [EPP_TIME_LIMIT]`,
        code: 'EPP_TIME_LIMIT',
        message: `the render did not end within ${seconds} s and was stopped`,
      },
    ],
    warnings: [],
    renderMs: 0,
    marks: [],
  });
}

function answered(answer: WorkerAnswer): void {
  if (timing?.id === answer.id) {
    const t = timing;
    timing = undefined;
    t.done(answer.meanMs ?? Number.NaN);
    return;
  }
  if (running?.id !== answer.id) return;
  clearTimeout(running.timer);
  running = undefined;
  const hints = answer.errors.map((e) => pageHint(e.code, e.message, e.hint) ?? null);
  const outcome: Outcome = { output: answer.output, errors: answer.errors.map((e) => e.text), hints, warnings: answer.warnings, renderMs: answer.renderMs };
  // The underline's tooltip says the hint too, under the message (as the command line prints it); a
  // render stops at its one error, so every mark is of that error.
  const withHint = (message: string) => (hints[0] ? `${message}\nhint: ${hints[0]}` : message);
  const marks = new Map<string, Diagnostic[]>();
  for (const m of answer.marks) {
    const list = marks.get(m.file) ?? [];
    list.push({ from: m.from, to: m.to, severity: 'error', message: withHint(m.message) });
    marks.set(m.file, list);
  }
  const valueMarks: Diagnostic[] = answer.valueMark
    ? [{ from: answer.valueMark.offset, to: Math.min(answer.valueMark.offset + 1, valuesView.state.doc.length), severity: 'error', message: withHint(answer.valueMark.message) }]
    : [];
  last = outcome;
  show(outcome, marks, valueMarks);
  if (again) {
    again = false;
    void render(); // those waiting are told when it ends
    return;
  }
  const told = waiting;
  waiting = [];
  for (const resolve of told) resolve();
}

function show(outcome: Outcome, marks: Map<string, Diagnostic[]>, valueMarks: Diagnostic[]): void {
  // While the template has an error, the last good output stays, dimmed: typing is not a flicker.
  if (outcome.errors.length === 0) lastGood = outcome.output;
  $('output').textContent = lastGood;
  $('output').classList.toggle('stale', outcome.errors.length > 0);
  const problems = $('problems');
  problems.replaceChildren(
    ...outcome.errors.flatMap((text, i) => lines(text, 'error', outcome.hints[i])),
    ...outcome.warnings.flatMap((text) => lines(text, 'warning')),
  );
  $('timing').textContent = outcome.errors.length > 0 ? '' : `rendered in ${outcome.renderMs.toFixed(2)} ms`;
  // An error at the end of the text (an unclosed tag, an unclosed list) underlines the last character
  // that is not a line break, so that it shows.
  const clamp = (d: Diagnostic, text: string) => {
    let from = Math.max(0, Math.min(d.from, text.length - 1));
    while (from > 0 && text[from] === '\n') from--;
    return { ...d, from, to: Math.max(Math.min(d.to, text.length), Math.min(from + 1, text.length)) };
  };
  const template = templateView.state.doc.toString();
  const valuesText = valuesView.state.doc.toString();
  templateView.dispatch(setDiagnostics(templateView.state, (marks.get(current) ?? []).map((d) => clamp(d, template))));
  valuesView.dispatch(setDiagnostics(valuesView.state, valueMarks.map((d) => clamp(d, valuesText))));
}

/** A problem as `epp render` prints it: the message, then its hint on the line under it (an item of its own). */
function lines(text: string, kind: 'error' | 'warning', hint?: string | null): HTMLElement[] {
  const li = document.createElement('li');
  li.className = kind;
  li.textContent = text;
  if (!hint) return [li];
  const under = document.createElement('li');
  under.className = 'hint';
  under.textContent = `hint: ${hint}`;
  return [li, under];
}

/** The tabs of the template files; `+` adds one (a partial for `epp()`). */
function drawTabs(): void {
  const tabs = [...files.keys()].map((name) => {
    const button = document.createElement('button');
    button.textContent = name;
    button.className = name === current ? 'tab current' : 'tab';
    if (name === current) button.setAttribute('aria-current', 'true'); // which file the editor shows
    button.addEventListener('click', () => void select(name));
    return button;
  });
  const add = document.createElement('button');
  add.textContent = '+';
  add.title = 'add a template file (for epp())';
  add.className = 'tab add';
  add.addEventListener('click', () => {
    const name = prompt('File name, e.g. partials/header.epp')?.trim();
    if (!name || files.has(name) || name.split('/').some((p) => p === '' || p === '..')) return;
    files.set(name, fileState(''));
    void select(name);
  });
  $('tabs').replaceChildren(...tabs, add);
}

function select(name: string): Promise<void> {
  files.set(current, templateView.state);
  current = name;
  templateView.setState(files.get(name)!);
  drawTabs();
  return render();
}

drawTabs();
/** The example's first render: the page is ready once it shows. */
const firstRender = render();

/** For tests and the benchmark: drive the page as a user would, read what it shows. */
declare global {
  interface Window {
    playground: {
      /** Resolves once the page shows its first render (the example, on load). */
      ready(): Promise<void>;
      /** Each resolves once the page shows the render of the change. */
      setFile(name: string, text: string): Promise<void>;
      setValues(text: string): Promise<void>;
      select(name: string): Promise<void>;
      outcome(): Outcome;
      /** Renders the current files `times` times (in the worker) and gives the mean milliseconds per render. */
      timeRender(times: number): Promise<number>;
    };
  }
}

window.playground = {
  ready: () => firstRender,
  async setFile(name, text) {
    if (!files.has(name)) files.set(name, fileState(text));
    if (name !== current) await select(name);
    const state = templateView.state;
    if (state.sliceDoc() !== text || text.includes('\r\n') !== (state.lineBreak === '\r\n')) {
      templateView.setState(fileState(text));
      files.set(name, templateView.state);
    }
    await render();
  },
  async setValues(text) {
    valuesView.dispatch({ changes: { from: 0, to: valuesView.state.doc.length, insert: text } });
    await render();
  },
  select,
  outcome: () => last,
  timeRender(times) {
    return new Promise((done) => {
      const id = ++nextId;
      timing = { id, done };
      worker.postMessage({ id, kind: 'time', texts: texts(), valuesText: valuesView.state.doc.toString(), strict: strict.checked, times } satisfies WorkerRequest);
    });
  },
};
