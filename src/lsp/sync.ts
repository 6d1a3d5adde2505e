/**
 * `.sync.yml` documents: `validate`'s problems at their place, completion of template names and setting
 * keys from the templates the sources offer, hover with what `show` says of a setting. The project is
 * loaded from the editor's text (unsaved edits included) and offline: git sources come from the cache, so
 * that typing never fetches (a source not cached yet is reported, as `validate --offline` reports it).
 */
import { dirname, resolve, sep } from 'node:path';
import type { CompletionItem, Diagnostic, Hover, Position } from 'vscode-languageserver/node';
import {
  EngineError,
  fromProblem,
  loadProject,
  type Problem,
  type Project,
  type ProjectOptions,
  type SettingView,
  settingsSchema,
  typeLabel,
} from '../index.js';
import type { CheckJob } from './checker.js';
import { toDiagnostic } from './diagnostics.js';
import { pathOf } from './epp.js';
import { lsp, type TextDocument } from './protocol.js';
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

interface Loaded {
  readonly text: string;
  readonly project: Project;
  /** What `show` says of each template's settings, made on first use (hover), by template. */
  readonly plans: Map<string, Promise<readonly SettingView[] | undefined>>;
}

export class SyncDocuments {
  /** The last project that loaded, per document: completion goes on while the text does not parse. */
  private readonly loaded = new Map<string, Loaded>();

  constructor(
    private readonly options: ProjectOptions,
    /** The settings of a template as `show` says them, for the document's project (see checker.ts). */
    private readonly views: (
      document: TextDocument,
      template: string,
    ) => Promise<readonly SettingView[] | undefined>,
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
      // Reported by the validation.
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
        own.push(toDiagnostic(document, fromProblem(p, text)));
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
    const project = this.loaded.get(uri)?.project;
    if (!project) return true;
    const inside = (dir: string) => path === dir || path.startsWith(`${dir}${sep}`);
    if (inside(project.root)) return true;
    for (const t of project.available.values()) if (inside(t.dir)) return true;
    return false;
  }

  forget(uri: string): void {
    this.loaded.delete(uri);
  }

  async completion(document: TextDocument, position: Position): Promise<CompletionItem[]> {
    const project = (await this.load(document))?.project;
    if (!project) return [];
    const place = yamlPlace(document.getText(), position.line, position.character);
    const [first, second] = place.parents;
    const templateItems = () =>
      [...project.available.values()].map((t) => ({
        label: t.name,
        kind: lsp.CompletionItemKind.Module,
        detail: t.manifest.name,
        documentation: t.manifest.description,
      }));
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
    const t = first !== undefined && place.parents.length === 1 ? project.available.get(first) : undefined;
    if (!t) return [];
    const properties = (settingsSchema(project, t).properties ?? {}) as Record<
      string,
      Record<string, unknown>
    >;
    const names = new Set([...Object.keys(properties), ...Object.keys(t.manifest.default_settings)]);
    return [...names].map((name) => {
      const schema = Object.hasOwn(properties, name) ? properties[name] : undefined;
      const description = schema?.description;
      return {
        label: name,
        kind: lsp.CompletionItemKind.Property,
        detail: schema ? typeLabel(schema) : 'any',
        ...(typeof description === 'string' ? { documentation: description } : {}),
      };
    });
  }

  async hover(document: TextDocument, position: Position): Promise<Hover | null> {
    const loaded = await this.load(document);
    if (!loaded) return null;
    const { project } = loaded;
    const text = document.getText();
    const place = yamlPlace(text, position.line, position.character);
    const range = { start: document.positionAt(place.start), end: document.positionAt(place.end) };
    const name =
      place.parents.length === 0
        ? place.key
        : place.parents[0] === 'pdk_template' && place.parents[1] === 'templates'
          ? place.item?.replace(/^---/, '')
          : undefined;
    if (name !== undefined) {
      const t = project.available.get(name);
      if (!t) return null;
      const value = [`**${t.name}** ${t.manifest.version ?? ''}`.trimEnd(), '', t.manifest.description].join(
        '\n',
      );
      return { contents: { kind: lsp.MarkupKind.Markdown, value }, range };
    }
    const [section] = place.parents;
    if (place.parents.length !== 1 || section === undefined || place.key === undefined) return null;
    const t = project.available.get(section);
    if (!t) return null;
    // As `show`: a template the project does not apply is planned as if added last. Planning renders
    // (and, trusted, runs hooks): it runs in the check worker, under its limits.
    let views = loaded.plans.get(t.name);
    if (!views) {
      views = this.views(document, t.name).catch(() => undefined);
      loaded.plans.set(t.name, views);
    }
    const view = (await views)?.find((s) => s.name === place.key);
    if (!view) return null;
    return { contents: { kind: lsp.MarkupKind.Markdown, value: settingHover(view) }, range };
  }

  /** The project of the document's current text; the last one that loaded when this one does not. */
  private async load(document: TextDocument): Promise<Loaded | undefined> {
    const text = document.getText();
    const last = this.loaded.get(document.uri);
    if (last?.text === text) return last;
    try {
      const root = dirname(pathOf(document.uri));
      const project = await loadProject(root, { ...this.options, syncText: text });
      const loaded = { text, project, plans: new Map() };
      this.loaded.set(document.uri, loaded);
      return loaded;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      return last;
    }
  }
}

function settingHover(s: SettingView): string {
  const lines = [`**${s.name}** (${s.type})`];
  if (s.description !== undefined) lines.push('', s.description);
  lines.push('', `default: \`${data(s.default)}\``, '', `value: \`${data(s.value)}\``);
  if (s.origin) lines.push('', `from: ${originText(s.origin)}`);
  return lines.join('\n');
}

function originText(origin: NonNullable<SettingView['origin']>): string {
  switch (origin.layer) {
    case 'default':
      return 'template default';
    case 'shared':
      return `shared setting from ${origin.detail ?? 'its publishers'}`;
    case 'hook':
      return `hook ${origin.detail ?? ''}`.trimEnd();
    case 'project':
      return origin.line !== undefined ? `project (.sync.yml:${origin.line}:${origin.column})` : 'project';
  }
}

function data(value: unknown): string {
  if (value === undefined) return '(none)';
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
}
