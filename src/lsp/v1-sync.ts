/**
 * Completion and hover in a V1 or modulesync `.sync.yml`: its top-level keys are the files of the
 * repository's `moduleroot/` (and the sections of its `config_defaults.yml`, `common` among them), the
 * keys under one are the settings `config_defaults.yml` gives that file, with their defaults. All of it
 * comes from the repository's files and data, never from running its ERB, so it is offered with or
 * without `--trust`; what only running it gives (the file rendered, its errors) is said in the hover.
 */
import type { CompletionItem, Hover, Range } from 'vscode-languageserver/node';
import { stringify } from 'yaml';
import type { Data, DataMap } from '../engine/model.js';
import { isDataMap } from '../engine/settings.js';
import { fileOfTemplate, type V1Outline } from './project-outline.js';
import { lsp } from './protocol.js';
import type { YamlPlace } from './yaml-path.js';

/** A default longer than this is cut in hover and completion (the file itself has it whole). */
const MAX_SHOWN = 1500;

function what(v1: V1Outline): string {
  return v1.kind === 'modulesync' ? 'the modulesync configuration' : 'the V1 template repository';
}

/** Where its templates are: a modulesync configuration has no `moduleroot_init/`. */
function templateDirs(v1: V1Outline): string {
  return v1.kind === 'modulesync' ? '`moduleroot/`' : '`moduleroot/` or `moduleroot_init/`';
}

/** The templates writing `file` (`moduleroot_init/README.md.erb`), named as the repository has them. */
function templatesOf(v1: V1Outline, file: string): string {
  const found = v1.templates.filter((t) => fileOfTemplate(t) === file);
  return (found.length > 0 ? found : [`moduleroot/${file}.erb`]).map((t) => `\`${t}\``).join(' or ');
}

function defaultsOf(v1: V1Outline): DataMap | undefined {
  return v1.defaults && 'data' in v1.defaults ? v1.defaults.data : undefined;
}

/** The value config_defaults.yml gives at `path` (a file's section, then keys below it). */
function defaultAt(v1: V1Outline, path: readonly string[]): { found: boolean; value?: Data | undefined } {
  let value: Data | undefined = defaultsOf(v1);
  for (const key of path) {
    if (!isDataMap(value) || !Object.hasOwn(value, key)) return { found: false };
    value = value[key];
  }
  return { found: true, value };
}

function yamlOf(value: Data | undefined): string {
  const text = stringify(value ?? null, { lineWidth: 0 }).trimEnd();
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n# ...` : text;
}

export function v1Completion(v1: V1Outline, place: YamlPlace): CompletionItem[] {
  if (place.listItem) return [];
  if (place.parents.length === 0) {
    const items = new Map<string, CompletionItem>();
    const detail = `a file of the ${v1.kind === 'modulesync' ? 'modulesync configuration' : 'V1 template repository'}`;
    for (const file of v1.files) {
      const section = defaultAt(v1, [file]);
      items.set(file, {
        label: file,
        kind: lsp.CompletionItemKind.File,
        detail,
        ...(section.found && isDataMap(section.value)
          ? { documentation: sectionDocumentation(file, section.value) }
          : {}),
      });
    }
    // Sections of config_defaults.yml that are no file of moduleroot/ (`common`, a file it deletes).
    for (const [key, value] of Object.entries(defaultsOf(v1) ?? {})) {
      if (items.has(key)) continue;
      items.set(key, {
        label: key,
        kind: lsp.CompletionItemKind.Module,
        detail: key === 'common' ? 'settings every file reads' : 'a section of config_defaults.yml',
        ...(isDataMap(value) ? { documentation: sectionDocumentation(key, value) } : {}),
      });
    }
    return [...items.values()];
  }
  const at = defaultAt(v1, place.parents);
  if (!at.found || !isDataMap(at.value)) return [];
  return Object.entries(at.value).map(([key, value]) => ({
    label: key,
    kind: lsp.CompletionItemKind.Property,
    detail: `default: ${oneLine(value)}`,
    documentation: { kind: lsp.MarkupKind.Markdown, value: `config_defaults.yml:\n\n${fenced(value)}` },
  }));
}

function sectionDocumentation(file: string, section: DataMap) {
  const keys = Object.keys(section);
  const value =
    keys.length === 0
      ? `config_defaults.yml gives \`${file}\` no settings.`
      : `config_defaults.yml gives \`${file}\`: ${keys.map((k) => `\`${k}\``).join(', ')}.`;
  return { kind: lsp.MarkupKind.Markdown, value };
}

function oneLine(value: Data | undefined): string {
  const text = JSON.stringify(value ?? null, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function fenced(value: Data | undefined): string {
  return `\`\`\`yaml\n${yamlOf(value)}\n\`\`\``;
}

/** Most templates named as reading a key; the rest are counted. */
const MAX_READERS = 8;

/**
 * Which templates read the setting at `path` (a file's key, then keys below it), from their text
 * (erb-reads.ts): the file's own template, or every template for `common` (and msync's `:global`-like
 * keys), whose settings each file reads.
 */
function readsOf(v1: V1Outline, path: readonly string[]): string {
  const [file, ...keys] = path;
  const everyFile = file === 'common' || file!.startsWith(':');
  const key = `\`@configs${keys.map((k) => `['${k}']`).join('')}\``;
  if (!everyFile && !v1.files.includes(file!))
    return `no template of \`${file}\` in ${templateDirs(v1)} reads it.`;
  const readers: string[] = [];
  for (const [template, reads] of Object.entries(v1.reads.byTemplate)) {
    if (!everyFile && fileOfTemplate(template) !== file) continue;
    const lines = [...new Set(reads.filter((r) => keys.every((k, i) => r.path[i] === k)).map((r) => r.line))];
    if (lines.length === 0) continue;
    readers.push(`\`${template}\` (line${lines.length > 1 ? 's' : ''} ${lines.slice(0, 5).join(', ')})`);
  }
  if (readers.length > 0) {
    const more = readers.length > MAX_READERS ? `, and ${readers.length - MAX_READERS} more` : '';
    return `read as ${key} by ${readers.slice(0, MAX_READERS).join(', ')}${more}.`;
  }
  const skipped = v1.reads.skipped;
  const unread =
    skipped > 0 ? ` (${skipped} template${skipped > 1 ? 's' : ''} over the size limits not read)` : '';
  return everyFile
    ? `no template of ${templateDirs(v1)} reads it as ${key}${unread}: unless one reads it another way (a key it computes), the setting does nothing.`
    : `its template does not read it as ${key}${unread}: unless it reads it another way (a key it computes), the setting does nothing.`;
}

/** What config_defaults.yml gives the key at `path`, and for a setting it gives none, which ERB reads it. */
function defaultLines(v1: V1Outline, path: readonly string[]): string[] {
  const name = path.map((k) => `\`${k}\``).join(' › ');
  // A setting (below a file's key) none gives a default: is it read at all? The ERB's text says.
  const reads = path.length > 1 ? readsOf(v1, path) : undefined;
  if (v1.defaults === undefined)
    return reads ? ['', `The repository has no config_defaults.yml; ${reads}`] : [];
  if ('unread' in v1.defaults) {
    const unread = `Its config_defaults.yml is not read: ${v1.defaults.unread}.`;
    return reads ? ['', unread, '', `${name}: ${reads}`] : ['', unread];
  }
  const found = defaultAt(v1, path);
  if (found.found && path.length === 1 && isDataMap(found.value))
    return ['', sectionDocumentation(path[0]!, found.value).value];
  if (found.found) return ['', `Default of ${name} (config_defaults.yml):`, '', fenced(found.value)];
  return [
    '',
    reads
      ? `config_defaults.yml gives ${name} no default; ${reads}`
      : `config_defaults.yml gives ${name} no default (whether the ERB reads it, and how, its template says).`,
  ];
}

/**
 * Hover on a key: which file of the repository it configures, the default config_defaults.yml gives the
 * key (or that it gives none), and what running the ERB would add where it does not run.
 */
export function v1Hover(v1: V1Outline, place: YamlPlace, range: Range): Hover {
  const file = place.parents[0] ?? place.key;
  // Any key but `common` and msync's `:global`-like ones names a file (one moduleroot/ may not have).
  const isFile = file !== undefined && file !== 'common' && !file.startsWith(':');
  const lines: string[] = [];
  if (file !== undefined && isFile) {
    lines.push(
      `\`${file}\` is a file of ${what(v1)} ${v1.url}: its settings are what ${templatesOf(v1, file)} reads there, and no schema describes them.`,
    );
  } else if (file === 'common') {
    lines.push(`\`common\`: settings every file of ${what(v1)} ${v1.url} reads, under its own section's.`);
  } else {
    lines.push(
      `This V1 \`.sync.yml\` configures the files of ${what(v1)} ${v1.url}: their ERB reads the settings, and no schema describes them.`,
    );
  }
  const path = place.key === undefined ? place.parents : [...place.parents, place.key];
  if (path.length > 0) lines.push(...defaultLines(v1, path));
  const render = `\`pantograph render${isFile ? ` ${file}` : ''}\``;
  lines.push(
    '',
    v1.runs
      ? `Settings are described for V2 templates only; here ${render} shows what the settings give.`
      : `The language server runs no Ruby without \`--trust\`: this file is not checked and its files not rendered. \`pantograph lsp --trust\` (for a repository you trust) checks it as \`status\` does; ${render} shows what the settings give.`,
  );
  return { contents: { kind: lsp.MarkupKind.Markdown, value: lines.join('\n') }, range };
}
