/**
 * `.sync.yml` documents: `validate`'s problems at their place, completion of template names and setting
 * keys from the templates the sources offer, hover with what `show` says of a setting. The project is
 * loaded from the editor's text (unsaved edits included) and offline: git sources come from the cache, so
 * that typing never fetches (a source not cached yet is reported, as `validate --offline` reports it).
 * Loading runs in the check worker, under a time limit (project-outline.ts): a hostile template stops
 * the request, never the server; the request then says which limit stopped it.
 */
import { basename, dirname, resolve, sep } from 'node:path';
import type { CompletionItem, Diagnostic, Hover, Position, Range } from 'vscode-languageserver/node';
import {
  fromProblem,
  type Problem,
  type ProjectOptions,
  type SettingView,
  settingOriginText,
} from '../index.js';
import { type CheckJob, CheckLimitError, SupersededError } from './checker.js';
import { toDiagnostic } from './diagnostics.js';
import { pathOf } from './epp.js';
import type { ProjectOutline } from './project-outline.js';
import { lsp, type TextDocument } from './protocol.js';
import { v1Completion, v1Hover } from './v1-sync.js';
import { yamlPlace } from './yaml-path.js';

const PDK_KEYS: Readonly<Record<string, string>> = {
  version: 'Version of the templating format (2).',
  template_sources: 'Where templates are looked up, in order.',
  templates: 'Templates to apply, in order; `---name` excludes an always_apply template.',
  shared_settings: 'Project overrides of shared settings.',
  unmanaged: 'Paths or globs never written nor deleted.',
  delete: 'Paths or globs removed from the project.',
  purge: 'Remove files Pantograph wrote before that no template produces now.',
  post: 'Commands run after writing a file whose basename matches a glob.',
};

/** What completion and hover know of a document's project, for one text of it. */
interface Loaded {
  /** Undefined once a file the project reads changed: loaded again on next use, kept meanwhile. */
  readonly text: string | undefined;
  /** The text it was loaded from (hover plans that one: the current may not load). */
  readonly source: string;
  readonly outline: ProjectOutline;
  /** What `show` says of each template's settings, made on first use (hover), by template. */
  readonly plans: Map<string, Promise<SettingViews>>;
}

/** Settings as `show` says them, or why they are not known (a limit stopped the planning). */
type SettingViews = readonly SettingView[] | undefined | CheckLimitError;

/** What the server runs in its worker for the requests of a `.sync.yml` (checker.ts). */
export interface ProjectRequests {
  /** The outline of the document's project; undefined when its text does not load. */
  outline(document: TextDocument): Promise<ProjectOutline | undefined>;
  /** The settings of a template as `show` says them. */
  views(document: TextDocument, text: string, template: string): Promise<readonly SettingView[] | undefined>;
}

/** A project whose loading was stopped at a limit: the requests say so rather than stay empty. */
type Load = Loaded | CheckLimitError | undefined;

export class SyncDocuments {
  /** The last project that loaded, per document: completion goes on while the text does not parse. */
  private readonly loaded = new Map<string, Loaded>();
  /** The load of a document's text on its way (completion, hover and the check share it). */
  private readonly loading = new Map<string, { text: string; load: Promise<Load> }>();

  constructor(
    private readonly options: ProjectOptions,
    private readonly requests: ProjectRequests,
  ) {}

  /** The project's validation, as `validate` makes it, to run in the check worker. */
  job(document: TextDocument, overlay: ReadonlyMap<string, string>): CheckJob {
    return {
      kind: 'sync',
      root: dirname(pathOf(document.uri)),
      text: document.getText(),
      options: this.options,
      overlay: [...overlay],
    };
  }

  /** Loads the project of the document's text for completion and hover, ahead of their first use. */
  async warm(document: TextDocument): Promise<void> {
    try {
      await this.load(document);
    } catch {
      // A failing load (a bug) is the validation's to report; the requests log it.
    }
  }

  /**
   * `validate`'s problems, sorted: those of the file itself (`own`), and those of other files (a template's
   * render errors) by absolute path.
   */
  accept(
    document: TextDocument,
    text: string,
    problems: readonly Problem[],
  ): { own: Diagnostic[]; elsewhere: Map<string, Problem[]> } {
    const file = pathOf(document.uri);
    const root = dirname(file);
    const own: Diagnostic[] = [];
    const elsewhere = new Map<string, Problem[]>();
    for (const p of problems) {
      const path = p.file === undefined ? file : resolve(root, p.file);
      if (path === file) {
        own.push(toDiagnostic(document, fromProblem(editorHint(p), text)));
      } else {
        const list = elsewhere.get(path) ?? [];
        list.push(p);
        elsewhere.set(path, list);
      }
    }
    return { own, elsewhere };
  }

  /**
   * Whether the project of the document reads `path`: a file of a template its sources offer, or of the
   * project itself. A project not loaded yet may read anything.
   */
  reads(uri: string, path: string): boolean {
    const outline = this.loaded.get(uri)?.outline;
    if (!outline) return true;
    const inside = (dir: string) => path === dir || path.startsWith(`${dir}${sep}`);
    if (inside(outline.root) || (outline.v1 && inside(outline.v1.dir))) return true;
    if (outline.templates.some((t) => inside(t.dir))) return true;
    // A template added to a source (its template.json written by a `git pull`) is one more to apply.
    return basename(path) === 'template.json' && outline.sources.some(inside);
  }

  /** A file the project reads changed: what was loaded of it (and what was stopped) is made again. */
  stale(uri: string): void {
    const loaded = this.loaded.get(uri);
    if (loaded) this.loaded.set(uri, { ...loaded, text: undefined, plans: new Map() });
    this.loading.delete(uri);
  }

  forget(uri: string): void {
    this.loaded.delete(uri);
    this.loading.delete(uri);
  }

  /**
   * Template names and setting keys where they go. `stopped` is called when loading the project was
   * stopped at a limit (and no earlier text of it loaded): the completion is empty for that reason.
   */
  async completion(
    document: TextDocument,
    position: Position,
    stopped: (e: CheckLimitError) => void,
  ): Promise<CompletionItem[]> {
    const load = await this.load(document);
    if (load instanceof CheckLimitError) stopped(load);
    const outline = load instanceof CheckLimitError ? undefined : load?.outline;
    if (!outline) return [];
    const place = yamlPlace(document.getText(), position.line, position.character);
    const [first, second] = place.parents;
    const templateItems = () =>
      outline.templates.map((t) => ({
        label: t.name,
        kind: lsp.CompletionItemKind.Module,
        detail: t.title,
        documentation: t.description,
      }));
    // A V1 file's keys are the repository's files; `pdk_template` would make it a V2 file.
    if (outline.v1) return v1Completion(outline.v1, place);
    if (first === 'pdk_template' && second === 'templates' && place.listItem) return templateItems();
    if (place.parents.length === 0) {
      return [
        {
          label: 'pdk_template',
          kind: lsp.CompletionItemKind.Keyword,
          detail: 'which templates apply, and how',
        },
        ...templateItems(),
      ];
    }
    if (first === 'pdk_template' && place.parents.length === 1) {
      return Object.entries(PDK_KEYS).map(([label, documentation]) => ({
        label,
        kind: lsp.CompletionItemKind.Keyword,
        documentation,
      }));
    }
    const t = place.parents.length === 1 ? outline.templates.find((x) => x.name === first) : undefined;
    if (!t) return [];
    return t.settings.map((s) => ({
      label: s.name,
      kind: lsp.CompletionItemKind.Property,
      detail: s.type,
      ...(s.description !== undefined ? { documentation: s.description } : {}),
    }));
  }

  async hover(document: TextDocument, position: Position): Promise<Hover | null> {
    const text = document.getText();
    const place = yamlPlace(text, position.line, position.character);
    const range = { start: document.positionAt(place.start), end: document.positionAt(place.end) };
    const load = await this.load(document);
    if (load instanceof CheckLimitError) return limitHover(load, range);
    if (!load) return null;
    const { outline } = load;
    if (outline.v1) return v1Hover(outline.v1, place, range);
    const name =
      place.parents.length === 0
        ? place.key
        : place.parents[0] === 'pdk_template' && place.parents[1] === 'templates'
          ? place.item?.replace(/^---/, '')
          : undefined;
    if (name !== undefined) {
      const t = outline.templates.find((x) => x.name === name);
      if (!t) return null;
      const value = [`**${t.name}** ${t.version ?? ''}`.trimEnd(), '', t.description].join('\n');
      return { contents: { kind: lsp.MarkupKind.Markdown, value }, range };
    }
    const [section] = place.parents;
    if (place.parents.length !== 1 || section === undefined || place.key === undefined) return null;
    const t = outline.templates.find((x) => x.name === section);
    if (!t) return null;
    // As `show`: a template the project does not apply is planned as if added last. Planning renders
    // (and, trusted, runs hooks): it runs in the check worker, under its limits.
    let views = load.plans.get(t.name);
    if (!views) {
      views = this.requests.views(document, load.source, t.name).catch((e: unknown) => {
        if (e instanceof CheckLimitError) return e;
        return undefined;
      });
      load.plans.set(t.name, views);
    }
    const found = await views;
    if (found instanceof CheckLimitError) return limitHover(found, range);
    const view = found?.find((s) => s.name === place.key);
    if (!view) return null;
    return { contents: { kind: lsp.MarkupKind.Markdown, value: settingHover(view) }, range };
  }

  /**
   * The project of the document's current text, loaded in the check worker; the last one that loaded
   * when this one does not (it does not parse) or was stopped at a limit; the limit's error when none did.
   */
  private async load(document: TextDocument): Promise<Load> {
    const { uri } = document;
    const text = document.getText();
    const last = this.loaded.get(uri);
    if (last?.text === text) return last;
    let pending = this.loading.get(uri);
    if (pending?.text !== text) {
      const load = this.requests.outline(document).then(
        (outline): Load => {
          if (!outline) return undefined;
          const loaded = { text, source: text, outline, plans: new Map() };
          if (this.loading.get(uri) === pending) this.loaded.set(uri, loaded);
          return loaded;
        },
        (e: unknown): Load => {
          if (e instanceof CheckLimitError) return e;
          // A newer text's load replaced this one before it ran: the last project serves meanwhile.
          if (e instanceof SupersededError) return undefined;
          throw e;
        },
      );
      pending = { text, load };
      this.loading.set(uri, pending);
    }
    const load = await pending.load;
    if (load instanceof CheckLimitError || load === undefined) return this.loaded.get(uri) ?? load;
    return load;
  }
}

/**
 * A V1 or modulesync `.sync.yml` with no repository named: the CLI's hint says `--template-url`, which an
 * editor's server is not given. The lock is where it finds one (engine/v1/locked-template-url.ts).
 */
function editorHint(p: Problem): Problem {
  if ((p.code !== 'SYNC_V1' && p.code !== 'SYNC_MODULESYNC') || !p.hint?.includes('--template-url')) return p;
  return {
    ...p,
    hint: `${p.hint}\nIn the editor, which is given no --template-url: run \`pantograph apply --template-url ...\` once in the module; the language server then takes the repository from .pantograph.lock (started with --trust: it runs the repository's Ruby).`,
  };
}

/** A hover that says why the project's settings are not known. */
function limitHover(e: CheckLimitError, range: Range): Hover {
  return {
    contents: {
      kind: lsp.MarkupKind.Markdown,
      value: `${e.message}.\n\n\`pantograph show\` and \`pantograph validate\` run without this limit.`,
    },
    range,
  };
}

function settingHover(s: SettingView): string {
  const lines = [`**${s.name}** (${s.type})`];
  if (s.description !== undefined) lines.push('', s.description);
  lines.push('', `default: \`${data(s.default)}\``, '', `value: \`${data(s.value)}\``);
  if (s.origin) lines.push('', `from: ${settingOriginText(s.origin, () => '.sync.yml')}`);
  return lines.join('\n');
}

function data(value: unknown): string {
  if (value === undefined) return '(none)';
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
}
