/**
 * EPP documents: diagnostics, hover, completion, go-to-definition and symbols. Each check says whether
 * the text parses and keeps the last text that did; while the text does not (mid-typing), requests use
 * that one's tree, so names stay offered. Trees are made in the check worker (epp-query.ts), never on the
 * server's thread.
 */
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  CompletionItem,
  Definition,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Position,
  Range,
} from 'vscode-languageserver/node';
import {
  FUNCTION_DOCS,
  FUNCTION_NAMES,
  type ModuleContext,
  moduleContextOf,
  moduleDefinitionOf,
  moduleNamesOf,
  PUPPET_TOP_SCOPE_NAMES,
  type ReadText,
  type Reference,
  resolveInside,
  type SpanProblem,
  TOP_SCOPE_NAMES,
  TYPE_DOCS,
  TYPE_NAME_LIST,
} from '../index.js';
import type { CheckJob, EppTemplateAnswer } from './checker.js';
import { toDiagnostic } from './diagnostics.js';
import type {
  DeclarationAnswer,
  EppQuery,
  EppQueryResult,
  ReferenceAnswer,
  ScopeAnswer,
  Span,
} from './epp-query.js';
import { lsp, type TextDocument } from './protocol.js';
import {
  partOf,
  type SettingSummary,
  sameTexts,
  type TemplateSummary,
  type TemplateTexts,
} from './template-summary.js';

interface EppState {
  readonly version: number;
  readonly text: string;
  /** Whether `text` parses (the check says; the tree is made in the worker when a request needs it). */
  readonly parsed: boolean;
  /** The last text that parsed, for navigation and completion while the text does not. */
  readonly lastGood: string | undefined;
  readonly context: TemplateSummary | undefined;
  /** The Puppet module the file is in (when it is in no template repository). */
  readonly module: ModuleContext | undefined;
}

/** What a check of the document needs, made on the server's thread (it reads the editor's buffers). */
export interface EppJob {
  readonly job: CheckJob & { kind: 'epp' };
  /** The summary of the job's template texts the server has (the worker is not asked for it again). */
  readonly known: KnownSummary | undefined;
  readonly module: ModuleContext | undefined;
  /** When the job was made, in the order of jobs: answers come back in any order (two workers). */
  readonly order: number;
}

/** The summary the worker made of a template's texts (`lastGood`: those it was made from, if broken). */
interface KnownSummary {
  readonly texts: TemplateTexts;
  readonly lastGood: TemplateTexts | undefined;
  readonly summary: TemplateSummary | undefined;
}

/**
 * Asks the check worker about a document's tree (epp-query.ts); undefined when it could not answer (a
 * limit stopped it, or a later request of the document replaced it).
 */
export type AskTree = <W extends EppQuery['what']>(
  uri: string,
  query: Extract<EppQuery, { what: W }>,
) => Promise<Extract<EppQueryResult, { what: W }>['answer'] | undefined>;

const TOP_SCOPE_DOCS: Readonly<Record<string, string>> = {
  settings: "every setting of the template, as a hash (`$settings['name']`)",
  metadata: "the project's metadata.json, as a hash",
  project: "the project: `$project['name']`, `$project['is_new']`",
  template: "the template: `$template['name']`, `$template['path']`, `$template['version']`",
};

/** Puppet's own top-scope names, for a Puppet module's templates (see PUPPET_TOP_SCOPE_NAMES). */
const PUPPET_TOP_SCOPE_DOCS: Readonly<Record<string, string>> = {
  facts:
    "the node's facts, as a hash (`$facts['os']['family']`); `pantograph epp render --facts FILE` gives them",
  trusted: "the node's trusted data from its certificate (`$trusted['certname']`)",
  server_facts: "facts the Puppet server sets (`$server_facts['serverversion']`)",
};

export class EppDocuments {
  private readonly states = new Map<string, EppState>();
  /**
   * By template directory: the last texts of its `template.json` and `template_schema.json` that parsed
   * (while they are being edited, their files are checked with those, rather than every read of a setting
   * flagged).
   */
  private readonly goodTexts = new Map<string, { readonly texts: TemplateTexts; readonly order: number }>();
  /** The order of the last job made (see {@link EppJob.order}). */
  private jobs = 0;
  /** By template directory: the summary the worker made of these texts (asked again when they change). */
  private readonly summaries = new Map<string, KnownSummary>();

  constructor(
    private readonly read: ReadText,
    private readonly ask: AskTree,
    /** A template.json or template_schema.json longer than this is not read for a file's context. */
    private readonly maxChars: number,
  ) {}

  /**
   * The texts of the template of a file (the nearest directory above it holding a `template.json`), read
   * here (the editor's buffers first) and parsed in the worker (template-summary.ts).
   */
  private templateTexts(file: string): TemplateTexts | undefined {
    for (let dir = dirname(file); dirname(dir) !== dir; dir = dirname(dir)) {
      const manifestPath = join(dir, 'template.json');
      const found = this.read(manifestPath);
      if (found === undefined) continue;
      // One that is a symbolic link out of the repository is not read, as `validate` refuses it.
      const manifest = inItsRepository(manifestPath) ? found : '{}';
      const schemaPath = join(dir, 'template_schema.json');
      const schema = inItsRepository(schemaPath) ? this.read(schemaPath) : undefined;
      // Texts over the limit are not parsed, nor sent: the worker is told only that they are too large.
      if (manifest.length > this.maxChars || (schema?.length ?? 0) > this.maxChars)
        return { dir, manifest: '', schema: undefined, tooLarge: true };
      return { dir, manifest, schema, tooLarge: false };
    }
    return undefined;
  }

  /** The check of the document's current text, to run in the check worker. */
  job(document: TextDocument): EppJob {
    const text = document.getText();
    const file = pathOf(document.uri);
    const texts = this.templateTexts(file);
    const module = texts ? undefined : moduleContextOf(file, this.read);
    const good = texts && this.goodTexts.get(texts.dir)?.texts;
    const lastGood = good && !sameTexts(good, texts) ? good : undefined;
    const known = texts && this.summaries.get(texts.dir);
    const summary =
      known && sameTexts(known.texts, texts) && sameTexts(known.lastGood, lastGood) ? known : undefined;
    const template = texts && { texts, lastGood, wantSummary: summary === undefined };
    return {
      job: { kind: 'epp', text, file, template, modulePath: module?.modulePath },
      known: summary,
      module,
      order: ++this.jobs,
    };
  }

  /** What the worker said of the job's template: its summary (when asked) and whether its texts parse. */
  private learn(uri: string, job: EppJob, made: EppTemplateAnswer | undefined): TemplateSummary | undefined {
    const sent = job.job.template;
    if (!sent) return undefined;
    let known = job.known;
    if (made) {
      // Only texts newer than the good ones known: the answer of an older check (of texts the editor has
      // changed since) may arrive after a newer one's.
      const good = this.goodTexts.get(sent.texts.dir);
      if (!made.broken && (good === undefined || good.order < job.order))
        this.goodTexts.set(sent.texts.dir, { texts: sent.texts, order: job.order });
      if (made.summary !== undefined) {
        known = { texts: sent.texts, lastGood: sent.lastGood, summary: made.summary ?? undefined };
        this.summaries.set(sent.texts.dir, known);
      }
    }
    const summary = known?.summary ?? this.states.get(uri)?.context;
    return summary && { ...summary, part: partOf(summary.dir, job.job.file) };
  }

  /**
   * The diagnostics of a check of `text` (version `version`), which is kept for the other requests (their
   * worker parses it). `problems` were found by the check worker.
   */
  accept(
    document: TextDocument,
    version: number,
    text: string,
    job: EppJob,
    result: { parsed: boolean; problems: readonly SpanProblem[]; template?: EppTemplateAnswer },
  ): Diagnostic[] {
    const { parsed, problems } = result;
    const previous = this.states.get(document.uri);
    const context = this.learn(document.uri, job, result.template);
    this.states.set(document.uri, {
      version,
      text,
      parsed,
      lastGood: parsed ? text : previous?.lastGood,
      context,
      module: job.module,
    });
    return problems.map((p) => toDiagnostic(document, p));
  }

  /** A document that is not checked (too large, or stopped at a limit): no tree, the last good kept. */
  unchecked(document: TextDocument, version: number, job: EppJob): void {
    const previous = this.states.get(document.uri);
    this.states.set(document.uri, {
      version,
      text: document.getText(),
      parsed: false,
      lastGood: previous?.lastGood,
      context: this.learn(document.uri, job, undefined),
      module: job.module,
    });
  }

  forget(uri: string): void {
    this.states.delete(uri);
  }

  async hover(document: TextDocument, position: Position): Promise<Hover | null> {
    const found = await this.referenceAtPosition(document, position);
    if (!found?.range) return null;
    const { state, answer } = found;
    const { ref } = answer;
    const fromModule = state.module && this.moduleHover(state.module, ref);
    const target = ref.kind === 'template-path' ? this.templatePath(document, state, ref.name) : undefined;
    const value = hoverText(answer, state.context, state.module !== undefined, fromModule, target);
    return value === undefined
      ? null
      : { contents: { kind: lsp.MarkupKind.Markdown, value }, range: rangeIn(document, found.range) };
  }

  async definition(document: TextDocument, position: Position): Promise<Definition | null> {
    const found = await this.referenceAtPosition(document, position);
    if (!found) return null;
    const { state, answer } = found;
    const { ref } = answer;
    if (ref.kind === 'variable') {
      const range = answer.declaration?.range;
      return range ? { uri: document.uri, range: rangeIn(document, range) } : null;
    }
    const start = { line: 0, character: 0 };
    const at = (file: string): Definition => ({
      uri: pathToFileURL(file).href,
      range: { start, end: start },
    });
    if (ref.kind === 'template-path') {
      const target = this.templatePath(document, state, ref.name);
      return target?.exists ? at(target.file) : null;
    }
    const inModule = state.module ? moduleDefinitionOf(state.module, ref.kind, ref.name) : undefined;
    return inModule ? at(inModule) : null;
  }

  async symbols(document: TextDocument): Promise<DocumentSymbol[]> {
    const state = this.states.get(document.uri);
    const source = state && this.source(state);
    if (source === undefined) return [];
    const text = document.getText();
    const delimiters = state!.context?.delimiters;
    const found = await this.ask(document.uri, {
      kind: 'epp-query',
      what: 'symbols',
      source,
      text,
      delimiters,
    });
    return (found ?? []).map((s) => ({
      name: s.name,
      detail: s.detail,
      kind: lsp.SymbolKind.Variable,
      range: rangeIn(document, s.range),
      selectionRange: rangeIn(document, s.selection),
    }));
  }

  async completion(document: TextDocument, position: Position): Promise<CompletionItem[]> {
    const state = this.states.get(document.uri) ?? {
      version: document.version,
      text: document.getText(),
      parsed: false,
      lastGood: undefined,
      context: undefined,
      module: undefined,
    };
    const text = document.getText();
    const offset = document.offsetAt(position);
    const where = codeAt(text, offset, state.context?.delimiters);
    if (where === 'text' || where === 'comment' || where === 'string') return [];
    const before = text.slice(Math.max(0, offset - 200), offset);
    if (/\$(?:::)?\w*$/.test(before)) {
      const scope = await this.ask(document.uri, {
        kind: 'epp-query',
        what: 'scope',
        text,
        parses: state.parsed && state.text === text,
        lastGood: state.lastGood,
        delimiters: state.context?.delimiters,
        offset,
      });
      return variableItems(state, scope);
    }
    // In a double-quoted string only `$` starts a name (an interpolation).
    if (where === 'interpolating') return [];
    const items: CompletionItem[] = [];
    if (!/[A-Z][\w:]*$/.test(before)) {
      for (const name of FUNCTION_NAMES) {
        const doc = FUNCTION_DOCS[name];
        items.push({
          label: name,
          kind: lsp.CompletionItemKind.Function,
          ...(doc ? { detail: doc.signature, documentation: doc.description } : {}),
        });
      }
    }
    for (const name of TYPE_NAME_LIST) {
      const doc = TYPE_DOCS[name];
      items.push({ label: name, kind: lsp.CompletionItemKind.Class, ...(doc ? { documentation: doc } : {}) });
    }
    if (state.module) {
      // The module's own aliases and functions (those of its fixtures are other modules' API).
      const names = moduleNamesOf(state.module, this.read);
      const detail = `module ${state.module.name}`;
      if (!/[A-Z][\w:]*$/.test(before)) {
        for (const label of names.functions)
          items.push({ label, kind: lsp.CompletionItemKind.Function, detail });
      }
      for (const label of names.types) items.push({ label, kind: lsp.CompletionItemKind.Class, detail });
    }
    return items;
  }

  /**
   * The file `epp('name')` renders, as a render finds it: inside the template's directory (a template
   * repository's template, else the file's own directory), then on the module path. A path a render
   * refuses (absolute, or leading outside that directory) is not followed: hover says why.
   */
  private templatePath(document: TextDocument, state: EppState, name: string): TemplateTarget | undefined {
    const base = state.context?.dir ?? dirname(pathOf(document.uri));
    const found = resolveInside(base, name);
    if ('real' in found) return { file: found.real, exists: true };
    const inModule = state.module ? moduleDefinitionOf(state.module, 'template-path', name) : undefined;
    if (inModule) return { file: inModule, exists: true };
    if (found.problem === 'absolute')
      return {
        file: name,
        exists: false,
        refused: `absolute paths are not allowed (a path is relative to ${base})`,
      };
    const file = resolve(base, name);
    // A missing file is refused by where it would be too (a render says only that it is not found).
    if (found.problem === 'outside' || relative(base, file).split(sep)[0] === '..')
      return { file: name, exists: false, refused: `it is outside ${base}` };
    return { file, exists: false };
  }

  /** The text whose tree serves requests: the current one if it parses, else the last that did. */
  private source(state: EppState): string | undefined {
    return state.parsed ? state.text : state.lastGood;
  }

  /** The file's state and what the worker found named at the position, with its range now. */
  private async referenceAtPosition(document: TextDocument, position: Position) {
    const state = this.states.get(document.uri);
    const source = state && this.source(state);
    if (source === undefined) return undefined;
    const answer = await this.ask(document.uri, {
      kind: 'epp-query',
      what: 'reference',
      source,
      text: document.getText(),
      delimiters: state!.context?.delimiters,
      offset: document.offsetAt(position),
    });
    return answer ? { state: state!, answer, range: answer.range } : undefined;
  }

  /** What a module's file says of a name its template uses: a type alias's definition, where a function is. */
  private moduleHover(module: ModuleContext, ref: Reference): string | undefined {
    if (ref.kind !== 'type' && ref.kind !== 'function') return undefined;
    const file = moduleDefinitionOf(module, ref.kind, ref.name);
    if (!file) return undefined;
    const where = `defined in ${relative(module.dir, file)}`;
    // Its head is what is shown: a file's first 64 KB are plenty (a module's file may be anything).
    const text = (this.read(file) ?? '').slice(0, 64 * 1024);
    const summary = /^#\s*@summary\s+(.+)$/m.exec(text)?.[1]?.trim();
    const about = (what: string) => `${summary ? `${summary}\n\n` : ''}${what}, ${where}.`;
    if (ref.kind === 'function') {
      const head = functionHead(text);
      const signature =
        head
          ?.replace(/\s*\{\s*$/, '')
          .replace(/\s+/g, ' ')
          .replace(/\( /g, '(')
          .replace(/,? \)/g, ')')
          .trim() ?? `${ref.name}()`;
      return `${code(signature.slice(0, 600))}\n${about('A function of a module')}`;
    }
    const declaration = /^[ \t]*type[ \t][\s\S]*/m.exec(text)?.[0].trim();
    return declaration
      ? `${code(declaration.slice(0, 600))}\n${about('A type alias of a module')}`
      : undefined;
  }
}

/**
 * A function's head as written: from its `function` line to the line that opens its body. Line by line:
 * a lazy regular expression tried every `function` line against the rest of the file, ~0.2 s of the
 * server's thread on a 64 KB file of them without a body.
 */
function functionHead(text: string): string | undefined {
  const start = /^[ \t]*function[ \t]/m.exec(text)?.index;
  if (start === undefined) return undefined;
  for (let at = start; ; ) {
    const eol = text.indexOf('\n', at);
    const end = eol < 0 ? text.length : eol;
    const line = text.slice(at, end);
    if (/\{[ \t]*\r?$/.test(line)) return text.slice(start, end).replace(/\r$/, '');
    if (eol < 0) return undefined;
    at = eol + 1;
  }
}

/** The file an `epp()` path names; `refused` says why a render would not read it. */
interface TemplateTarget {
  readonly file: string;
  readonly exists: boolean;
  readonly refused?: string;
}

/** Declared parameters, variables in scope, the template's settings (files without parameters) and the
 * top-scope names. */
function variableItems(state: EppState, scope: ScopeAnswer | undefined): CompletionItem[] {
  const items = new Map<string, CompletionItem>();
  const add = (name: string, kind: NonNullable<CompletionItem['kind']>, detail: string) => {
    if (!items.has(name)) items.set(name, { label: name, kind, detail });
  };
  for (const d of scope?.names ?? []) {
    add(d.name, lsp.CompletionItemKind.Variable, d.kind === 'assignment' ? 'local variable' : d.kind);
  }
  if (state.context && !scope?.hasParams && state.context.part.startsWith('files')) {
    for (const [name, info] of state.context.settings) {
      add(name, lsp.CompletionItemKind.Property, `setting (${info.type})`);
    }
  }
  const tops = state.module ? PUPPET_TOP_SCOPE_NAMES : TOP_SCOPE_NAMES;
  for (const name of tops) add(name, lsp.CompletionItemKind.Module, 'top-scope name');
  return [...items.values()];
}

function hoverText(
  answer: ReferenceAnswer,
  context: TemplateSummary | undefined,
  /** The file is a Puppet module's template: its top scope is Puppet's. */
  inModule: boolean,
  /** What the file's module says of the name, before the built-in docs. */
  fromModule: string | undefined,
  /** The file an `epp()` path names. */
  target: TemplateTarget | undefined,
): string | undefined {
  if (fromModule !== undefined) return fromModule;
  const { ref } = answer;
  switch (ref.kind) {
    case 'function': {
      const doc = FUNCTION_DOCS[ref.name];
      return doc ? `${code(doc.signature)}\n${doc.description}` : undefined;
    }
    case 'type': {
      const doc = TYPE_DOCS[ref.name];
      if (doc) return `${code(`type ${ref.name}`)}\n${doc}`;
      // A name of Puppet's or stdlib's without a doc of its own; any other is no type known here.
      return TYPE_NAMES.has(ref.name) ? `${code(`type ${ref.name}`)}\nA stdlib type alias.` : undefined;
    }
    case 'template-path':
      if (!target) return undefined;
      return target.refused
        ? `${code(`epp('${ref.name}')`)}\nRenders nothing: ${target.refused}`
        : `${code(`epp('${ref.name}')`)}\nRenders ${target.file}${target.exists ? '' : ' (no such file)'}`;
    case 'variable':
      return variableHover(ref.name, answer.declaration, context, inModule);
  }
}

const TYPE_NAMES: ReadonlySet<string> = new Set(TYPE_NAME_LIST);

function variableHover(
  name: string,
  d: DeclarationAnswer | undefined,
  context: TemplateSummary | undefined,
  inModule: boolean,
): string | undefined {
  if (d?.parameter) {
    const p = d.parameter;
    const type = p.type ?? 'Any';
    const value = p.default !== undefined ? ` = ${p.default}` : '';
    const what = d.kind === 'parameter' ? 'parameter of this template' : 'block parameter';
    return `${code(`${type} $${name}${value}`)}\n${what}${p.default !== undefined ? '' : ' (required)'}`;
  }
  if (d?.value !== undefined) return `${code(`$${name} = ${d.value}`)}\nlocal variable`;
  const setting = context?.settings.get(name);
  if (setting) return settingHover(name, setting, context!);
  const docs = inModule ? PUPPET_TOP_SCOPE_DOCS : TOP_SCOPE_DOCS;
  const top = docs[name.replace(/^::/, '')];
  return top ? `${code(`$${name}`)}\n${top}` : undefined;
}

function settingHover(name: string, setting: SettingSummary, context: TemplateSummary): string {
  const lines = [code(`$${name}: ${setting.type}`), `setting of template '${context.name}'`];
  if (setting.description !== undefined) lines.push('', setting.description);
  if (setting.default !== undefined) lines.push('', `default: \`${json(setting.default)}\``);
  return lines.join('\n');
}

/**
 * What the text at `offset` is: template text outside the tags, a comment (a `<%#` tag, a `#` or
 * C-style comment in code), a string where no name can start (single-quoted, or double-quoted away from a `$`), a
 * double-quoted string (`interpolating`: only a variable can start there), or code.
 */
function codeAt(
  text: string,
  offset: number,
  delimiters?: readonly [string, string],
): 'text' | 'comment' | 'string' | 'interpolating' | 'code' {
  const [open, close] = delimiters ?? ['<%', '%>'];
  const tag = text.lastIndexOf(open, offset - 1);
  if (tag < 0 || tag < text.lastIndexOf(close, offset - 1)) return 'text';
  let i = tag + open.length;
  if (text[i] === '%') return 'text'; // `<%%` is a literal `<%`
  if (text[i] === '#') return 'comment';
  let quote: string | undefined;
  while (i < offset) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '#') {
      const eol = text.indexOf('\n', i);
      if (eol < 0 || eol >= offset) return 'comment';
      i = eol;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0 || end + 2 > offset) return 'comment';
      i = end + 1;
    }
    i++;
  }
  if (quote === "'") return 'string';
  if (quote === '"') return 'interpolating';
  return 'code';
}

function code(text: string): string {
  return `\`\`\`puppet\n${text}\n\`\`\``;
}

function json(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
}

/**
 * Whether a template's JSON file is in its repository (the directory above the template's), its real
 * path included: a symlink leading out is not read, as the engine refuses it (`TEMPLATE_SYMLINK`). A file
 * that does not exist is (reading it finds nothing).
 */
function inItsRepository(path: string): boolean {
  let real: string;
  let repository: string;
  try {
    real = realpathSync(path);
    repository = realpathSync(dirname(dirname(path)));
  } catch {
    return true;
  }
  const rel = relative(repository, real);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/** A document's range of a span of its text. */
function rangeIn(document: TextDocument, span: Span): Range {
  return { start: document.positionAt(span.start), end: document.positionAt(span.end) };
}

export function pathOf(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}
