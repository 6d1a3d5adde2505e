/**
 * The EPP playground: EPP rendering entirely in the browser, as the user types. Template files (the main
 * one and any it calls with `epp()`, kept in memory), values as YAML or JSON, the output, and every error
 * and warning with its position, underlined in the editor. No server: the engine is Pantograph's own
 * (`src/epp`, which imports nothing from Node), bundled by scripts/build-playground.mjs.
 */
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { basicSetup, EditorView } from 'codemirror';
import { EppError, type EppWarning, renderEpp } from '../../src/epp/index.js';
import type { PHash } from '../../src/epp/runtime/values.js';
import { eppLanguage } from './epp-language.js';
import { readValues } from './values.js';

const MAIN = 'main.epp';

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
  warnings: string[];
  renderMs: number;
}

const files = new Map<string, EditorState>();
let current = MAIN;
let last: Outcome = { output: '', errors: [], warnings: [], renderMs: 0 };
let lastGood = '';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const templateView = new EditorView({
  parent: $('template'),
  state: fileState(SAMPLE[MAIN]!),
});
const valuesView = new EditorView({
  parent: $('values'),
  state: EditorState.create({ doc: SAMPLE_VALUES, extensions: [basicSetup, lintGutter(), onChange()] }),
});
for (const [name, text] of Object.entries(SAMPLE)) files.set(name, fileState(text));
files.set(MAIN, templateView.state);

function fileState(text: string): EditorState {
  return EditorState.create({ doc: text, extensions: [basicSetup, eppLanguage, lintGutter(), onChange()] });
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
    render();
  });
}

function render(): void {
  files.set(current, templateView.state);
  const texts = Object.fromEntries([...files].map(([name, state]) => [name, state.doc.toString()]));
  const outcome: Outcome = { output: '', errors: [], warnings: [], renderMs: 0 };
  const marks = new Map<string, Diagnostic[]>();
  const valueMarks: Diagnostic[] = [];
  const read = readValues(valuesView.state.doc.toString());
  let values: PHash | undefined;
  if ('problem' in read) {
    const { message, offset } = read.problem;
    outcome.errors.push(message);
    valueMarks.push({ from: offset, to: Math.min(offset + 1, valuesView.state.doc.length), severity: 'error', message });
  } else values = read.values;
  if (values !== undefined) {
    const onWarning = (w: EppWarning) => outcome.warnings.push(`${w.where}: ${w.message} [${w.code}]`);
    const started = performance.now();
    try {
      outcome.output = renderEpp(texts[MAIN] ?? '', values, {
        file: MAIN,
        files: texts,
        onWarning,
      });
    } catch (e) {
      if (!(e instanceof EppError)) throw e;
      const where = e.location ? `${e.location.file}:${e.line}:${e.column}: ` : '';
      outcome.errors.push(`${where}${e.message} [${e.code}]`);
      if (e.location) {
        const list = marks.get(e.location.file) ?? [];
        const { start, end } = e.location.span;
        list.push({ from: start, to: Math.max(end, start + 1), severity: 'error', message: `${e.message} [${e.code}]` });
        marks.set(e.location.file, list);
      }
    }
    outcome.renderMs = performance.now() - started;
  }
  show(outcome, marks, valueMarks);
  last = outcome;
}

function show(outcome: Outcome, marks: Map<string, Diagnostic[]>, valueMarks: Diagnostic[]): void {
  // While the template has an error, the last good output stays, dimmed: typing is not a flicker.
  if (outcome.errors.length === 0) lastGood = outcome.output;
  $('output').textContent = lastGood;
  $('output').classList.toggle('stale', outcome.errors.length > 0);
  const problems = $('problems');
  problems.replaceChildren(
    ...outcome.errors.map((text) => line(text, 'error')),
    ...outcome.warnings.map((text) => line(text, 'warning')),
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

function line(text: string, kind: 'error' | 'warning'): HTMLElement {
  const li = document.createElement('li');
  li.className = kind;
  li.textContent = text;
  return li;
}

/** The tabs of the template files; `+` adds one (a partial for `epp()`). */
function drawTabs(): void {
  const tabs = [...files.keys()].map((name) => {
    const button = document.createElement('button');
    button.textContent = name;
    button.className = name === current ? 'tab current' : 'tab';
    button.addEventListener('click', () => select(name));
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
    select(name);
  });
  $('tabs').replaceChildren(...tabs, add);
}

function select(name: string): void {
  files.set(current, templateView.state);
  current = name;
  templateView.setState(files.get(name)!);
  drawTabs();
  render();
}

drawTabs();
render();

/** For tests and the benchmark: drive the page as a user would, read what it shows. */
declare global {
  interface Window {
    playground: {
      setFile(name: string, text: string): void;
      setValues(text: string): void;
      select(name: string): void;
      outcome(): Outcome;
      /** Renders the current files `times` times and returns the mean milliseconds per render. */
      timeRender(times: number): number;
    };
  }
}

window.playground = {
  setFile(name, text) {
    if (!files.has(name)) files.set(name, fileState(''));
    if (name !== current) select(name);
    templateView.dispatch({ changes: { from: 0, to: templateView.state.doc.length, insert: text } });
    render();
  },
  setValues(text) {
    valuesView.dispatch({ changes: { from: 0, to: valuesView.state.doc.length, insert: text } });
    render();
  },
  select,
  outcome: () => last,
  timeRender(times) {
    const texts = Object.fromEntries([...files].map(([name, state]) => [name, state.doc.toString()]));
    const read = readValues(valuesView.state.doc.toString());
    const values = 'values' in read ? read.values : new Map();
    const started = performance.now();
    for (let i = 0; i < times; i++) renderEpp(texts[MAIN] ?? '', values, { file: MAIN, files: texts });
    return (performance.now() - started) / times;
  },
};
