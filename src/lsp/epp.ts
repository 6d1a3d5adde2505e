/**
 * EPP documents: diagnostics, hover, completion, go-to-definition and symbols. Each check keeps the
 * document's syntax tree; while the text does not parse (mid-typing), completion uses the last tree that
 * did, so names stay offered.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type {
  CompletionItem,
  Definition,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Position,
} from 'vscode-languageserver/node';
import {
  checkEppText,
  declarationAt,
  FUNCTION_DOCS,
  FUNCTION_NAMES,
  type ModuleContext,
  moduleContextOf,
  moduleDefinitionOf,
  moduleNamesOf,
  PUPPET_TOP_SCOPE_NAMES,
  parameterNameSpan,
  parseEpp,
  type ReadText,
  type Reference,
  referenceAt,
  type SettingInfo,
  type TemplateContext,
  type TemplateNode,
  TOP_SCOPE_NAMES,
  TYPE_DOCS,
  TYPE_NAME_LIST,
  templateContextOf,
  typeLabel,
  visibleDeclarations,
} from '../index.js';
import { encodingProblem, toDiagnostic } from './diagnostics.js';
import { lsp, type TextDocument } from './protocol.js';

interface EppState {
  readonly version: number;
  readonly ast: TemplateNode | undefined;
  /** The last tree that parsed, for completion while the text does not. */
  readonly lastGood: TemplateNode | undefined;
  readonly context: TemplateContext | undefined;
  /** The Puppet module the file is in (when it is in no template repository). */
  readonly module: ModuleContext | undefined;
}

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

  constructor(private readonly read: ReadText) {}

  /** The diagnostics of the document's current text (and its tree kept for the other requests). */
  diagnostics(document: TextDocument): Diagnostic[] {
    const text = document.getText();
    const file = pathOf(document.uri);
    const bad = encodingProblem(text);
    const context = templateContextOf(file, this.read);
    const module = context ? undefined : moduleContextOf(file, this.read);
    const check = bad
      ? { ast: undefined, problems: [bad] }
      : checkEppText(text, file, context, module?.modulePath);
    const previous = this.states.get(document.uri);
    this.states.set(document.uri, {
      version: document.version,
      ast: check.ast,
      lastGood: check.ast ?? previous?.lastGood,
      context,
      module,
    });
    return check.problems.map((p) => toDiagnostic(document, p));
  }

  forget(uri: string): void {
    this.states.delete(uri);
  }

  hover(document: TextDocument, position: Position): Hover | null {
    const { ast, context, module } = this.state(document);
    if (!ast) return null;
    const text = document.getText();
    const offset = document.offsetAt(position);
    const ref = referenceAt(ast, offset);
    if (!ref) return null;
    const range = { start: document.positionAt(ref.start), end: document.positionAt(ref.end) };
    const fromModule = module && this.moduleHover(module, ref);
    const value = hoverText(ref, ast, text, offset, context, module !== undefined, fromModule);
    return value === undefined ? null : { contents: { kind: lsp.MarkupKind.Markdown, value }, range };
  }

  definition(document: TextDocument, position: Position): Definition | null {
    const { ast, context, module } = this.state(document);
    if (!ast) return null;
    const offset = document.offsetAt(position);
    const ref = referenceAt(ast, offset);
    if (ref?.kind === 'variable') {
      const d = declarationAt(ast, ref.name, offset);
      if (!d) return null;
      const span = d.parameter ? parameterNameSpan(d.parameter) : d;
      return {
        uri: document.uri,
        range: { start: document.positionAt(span.start), end: document.positionAt(span.end) },
      };
    }
    if (!ref) return null;
    const start = { line: 0, character: 0 };
    const at = (file: string): Definition => ({
      uri: pathToFileURL(file).href,
      range: { start, end: start },
    });
    if (ref.kind === 'template-path' && !isAbsolute(ref.name)) {
      // As a render looks: beside the template (or in its template repository), then on the module path.
      const target = resolve(context?.dir ?? dirname(pathOf(document.uri)), ref.name);
      if (existsSync(target)) return at(target);
    }
    const inModule = module ? moduleDefinitionOf(module, ref.kind, ref.name) : undefined;
    return inModule ? at(inModule) : null;
  }

  symbols(document: TextDocument): DocumentSymbol[] {
    const { ast } = this.state(document);
    if (!ast) return [];
    const text = document.getText();
    return (ast.params ?? []).map((p) => {
      const name = parameterNameSpan(p);
      return {
        name: `$${p.name}`,
        detail: p.valueType ? text.slice(p.valueType.start, p.valueType.end) : 'Any',
        kind: lsp.SymbolKind.Variable,
        range: { start: document.positionAt(p.start), end: document.positionAt(p.end) },
        selectionRange: { start: document.positionAt(name.start), end: document.positionAt(name.end) },
      };
    });
  }

  completion(document: TextDocument, position: Position): CompletionItem[] {
    const state = this.state(document);
    const text = document.getText();
    const offset = document.offsetAt(position);
    if (!insideTag(text, offset, state.context?.delimiters)) return [];
    const before = text.slice(Math.max(0, offset - 200), offset);
    if (/\$(?:::)?\w*$/.test(before))
      return variableItems(state, treeForCompletion(state, text, offset), offset);
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
      // The head as written, up to the line that opens the body.
      const head = /^[ \t]*function[ \t][\s\S]*?\{[ \t]*$/m.exec(text)?.[0];
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

  private state(document: TextDocument): EppState {
    const state = this.states.get(document.uri);
    if (state && state.version === document.version) return state;
    this.diagnostics(document);
    return this.states.get(document.uri)!;
  }
}

/** Declared parameters, variables in scope, the template's settings (files without parameters) and the
 * top-scope names. */
function variableItems(state: EppState, tree: TemplateNode | undefined, offset: number): CompletionItem[] {
  const items = new Map<string, CompletionItem>();
  const add = (name: string, kind: NonNullable<CompletionItem['kind']>, detail: string) => {
    if (!items.has(name)) items.set(name, { label: name, kind, detail });
  };
  if (tree) {
    for (const d of visibleDeclarations(tree, Math.min(offset, tree.end))) {
      add(d.name, lsp.CompletionItemKind.Variable, d.kind === 'assignment' ? 'local variable' : d.kind);
    }
  }
  if (state.context && !tree?.params && state.context.part.startsWith('files')) {
    for (const [name, info] of state.context.settings) {
      add(name, lsp.CompletionItemKind.Property, `setting (${info.schema ? typeLabel(info.schema) : 'any'})`);
    }
  }
  const tops = state.module ? PUPPET_TOP_SCOPE_NAMES : TOP_SCOPE_NAMES;
  for (const name of tops) add(name, lsp.CompletionItemKind.Module, 'top-scope name');
  return [...items.values()];
}

function hoverText(
  ref: NonNullable<ReturnType<typeof referenceAt>>,
  ast: TemplateNode,
  text: string,
  offset: number,
  context: TemplateContext | undefined,
  /** The file is a Puppet module's template: its top scope is Puppet's. */
  inModule: boolean,
  /** What the file's module says of the name, before the built-in docs. */
  fromModule: string | undefined,
): string | undefined {
  if (fromModule !== undefined) return fromModule;
  switch (ref.kind) {
    case 'function': {
      const doc = FUNCTION_DOCS[ref.name];
      return doc ? `${code(doc.signature)}\n${doc.description}` : undefined;
    }
    case 'type': {
      const doc = TYPE_DOCS[ref.name];
      return doc
        ? `${code(`type ${ref.name}`)}\n${doc}`
        : `${code(`type ${ref.name}`)}\nA stdlib type alias.`;
    }
    case 'template-path': {
      const base = context?.dir ?? '.';
      return `${code(`epp('${ref.name}')`)}\nRenders ${resolve(base, ref.name)}`;
    }
    case 'variable':
      return variableHover(ref.name, ast, text, offset, context, inModule);
  }
}

function variableHover(
  name: string,
  ast: TemplateNode,
  text: string,
  offset: number,
  context: TemplateContext | undefined,
  inModule: boolean,
): string | undefined {
  const d = declarationAt(ast, name, offset);
  if (d?.parameter) {
    const p = d.parameter;
    const type = p.valueType ? text.slice(p.valueType.start, p.valueType.end) : 'Any';
    const value = p.defaultValue ? ` = ${text.slice(p.defaultValue.start, p.defaultValue.end)}` : '';
    const what = d.kind === 'parameter' ? 'parameter of this template' : 'block parameter';
    return `${code(`${type} $${name}${value}`)}\n${what}${p.defaultValue ? '' : ' (required)'}`;
  }
  if (d?.value) {
    const assigned = text.slice(d.value.start, Math.min(d.value.end, d.value.start + 200));
    return `${code(`$${name} = ${assigned}`)}\nlocal variable`;
  }
  const setting = context?.settings.get(name);
  if (setting) return settingHover(name, setting, context!);
  const docs = inModule ? PUPPET_TOP_SCOPE_DOCS : TOP_SCOPE_DOCS;
  const top = docs[name.replace(/^::/, '')];
  return top ? `${code(`$${name}`)}\n${top}` : undefined;
}

function settingHover(name: string, setting: SettingInfo, context: TemplateContext): string {
  const type = setting.schema ? typeLabel(setting.schema) : 'any';
  const lines = [code(`$${name}: ${type}`), `setting of template '${context.name}'`];
  const description = setting.schema?.description;
  if (typeof description === 'string') lines.push('', description);
  if (setting.default !== undefined) lines.push('', `default: \`${json(setting.default)}\``);
  return lines.join('\n');
}

/**
 * The tree that tells which names the cursor can see. A lone `$` does not parse; with a name put after
 * it, the text usually does. Else the current tree, else the last that parsed.
 */
function treeForCompletion(state: EppState, text: string, offset: number): TemplateNode | undefined {
  if (state.ast) return state.ast;
  try {
    const patched = `${text.slice(0, offset)}__${text.slice(offset)}`;
    return parseEpp(patched, { delimiters: state.context?.delimiters });
  } catch {
    return state.lastGood;
  }
}

/** Whether `offset` is inside an EPP tag (after an opening delimiter not closed yet). */
function insideTag(text: string, offset: number, delimiters?: readonly [string, string]): boolean {
  const [open, close] = delimiters ?? ['<%', '%>'];
  return text.lastIndexOf(open, offset - 1) > text.lastIndexOf(close, offset - 1);
}

function code(text: string): string {
  return `\`\`\`puppet\n${text}\n\`\`\``;
}

function json(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
}

export function pathOf(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}
