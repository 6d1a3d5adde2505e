/**
 * `pantograph init [DIR] [--name author-module] [--templates a,b] [--yes]`: a new Puppet module project.
 * Writes `metadata.json` (from flags, or from prompts on a terminal) and a `.sync.yml` applying the chosen
 * opt-in templates (the `always_apply` ones come by themselves), then plans and applies: `files_init/`
 * output included, as for every new project. DIR (default: here) is created when missing; a directory
 * that already holds `.sync.yml` or `metadata.json` is refused. Bad input (an unknown template, a bad
 * name, a plan with errors, existing files no one confirmed) leaves nothing written.
 *
 * `init --stub [--templates] [--stdout]` is the other form: only a commented `.sync.yml` (init-stub.ts).
 */
import { existsSync, mkdirSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { LoadedTemplate, SourceSpec } from '../../engine/model.js';
import { loadTemplate } from '../../engine/repository.js';
import { listTemplates, resolveSources } from '../../engine/sources/index.js';
import { didYouMeanHint } from '../../shared/did-you-mean.js';
import { LOCK_FILE } from '../../sync/index.js';
import { UsageError } from '../errors.js';
import { type Io, sayErr, sayOut } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { type EngineFlags, engineCommand, printJson, projectDir } from '../report.js';
import { fold } from '../wrap.js';
import { type Ask, captureJson, loadPlan, planFailed, runApply, terminalAsk } from './apply.js';
import { type InitStubFlags, initStub } from './init-stub.js';

export interface InitFlags extends EngineFlags, InitStubFlags {
  readonly name?: string;
  readonly author?: string;
  readonly summary?: string;
  readonly license?: string;
  readonly yes?: boolean;
}

/** A Forge module name: `author-module` (or `author/module`); the module part starts with a letter. */
const MODULE_NAME = /^([A-Za-z0-9]+)[-/]([a-z][a-z0-9_]*)$/;

export async function init(
  io: Io,
  global: GlobalOptions,
  dir: string | undefined,
  flags: InitFlags,
): Promise<number> {
  return initWith(io, global, dir, flags, terminalAsk);
}

/** `init` with the terminal question injected (tests). */
export async function initWith(
  io: Io,
  global: GlobalOptions,
  dir: string | undefined,
  flags: InitFlags,
  ask: Ask,
): Promise<number> {
  // Where the user stands (-C moves there, as git's): DIR and --source DIR are relative to it.
  const here = projectDir(io, global);
  const root = dir === undefined ? here : resolve(here, dir);
  if (flags.stub === true) {
    const source = flags.source?.map((location) => projectLocation(here, root, location));
    return initStub(io, { ...global, dir: root }, { ...flags, ...(source ? { source } : {}) });
  }
  return engineCommand(io, global, async () => {
    checkTarget(root, relative(io.cwd, root) || '.');
    const sources = sourceSpecs(here, root, flags);
    const available = await availableTemplates(root, sources, flags);
    const answers = await gather(io, root, flags, available, ask);
    const created = writeProject(root, answers, sources);
    const rollback = () => created.undo();
    try {
      const loaded = await loadPlan(io, global, flags, { root });
      if (planFailed(io, global, loaded.plan)) {
        rollback();
        return 1;
      }
      const captured = global.format === 'json' ? captureJson(io) : undefined;
      const applyFlags = { ...flags, yes: flags.yes === true, force: false, noop: false, diff: false };
      const code = await runApply(captured ?? io, global, loaded, { paths: [], flags: applyFlags, ask });
      // A run refused before writing (existing files no one confirmed) leaves no project behind.
      if (code !== 0 && !existsSync(join(root, LOCK_FILE))) rollback();
      if (captured) {
        printJson(io, {
          directory: root,
          name: answers.name,
          templates: answers.templates,
          ...captured.value(),
        });
      } else if (code === 0) {
        const steps = nextSteps(shownPath(io.cwd, root), answers, available);
        sayOut(io, steps.created);
        io.out(stepsText(steps.next, io.widths?.out));
      }
      return code;
    } catch (e) {
      if (!existsSync(join(root, LOCK_FILE))) rollback();
      throw e;
    }
  });
}

/** DIR must be new, or a directory without `.sync.yml` and `metadata.json`. */
function checkTarget(root: string, shown: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    return; // created later
  }
  if (!isDir) throw new UsageError(`${shown} is not a directory`, 'give a new directory, or an existing one');
  for (const name of ['.sync.yml', 'metadata.json']) {
    if (existsSync(join(root, name))) {
      throw new UsageError(
        `${shown} already holds a project: it has a ${name}`,
        name === '.sync.yml'
          ? 'run `pantograph apply` there to bring it in line with its templates'
          : 'for an existing module, write a .sync.yml with `pantograph init --stub`, then run `pantograph apply`',
      );
    }
  }
}

/** `--source DIR`... (filesystem sources, as {@link projectLocation} writes them), then `default`. */
function sourceSpecs(here: string, root: string, flags: InitFlags): SourceSpec[] {
  return [
    ...(flags.source ?? []).map((location) => ({
      type: 'filesystem' as const,
      location: projectLocation(here, root, location),
    })),
    { type: 'default', location: 'default' },
  ];
}

/**
 * A `--source DIR` as `.sync.yml` holds it. The user typed DIR from where they stand (`init ntp --source
 * my-templates`, as their shell completed it), but `.sync.yml` locations are relative to the project, and the
 * file is committed: a relative DIR is written relative to the project (`../my-templates`), so that every
 * checkout finds it beside the module; an absolute one stays absolute.
 */
function projectLocation(here: string, root: string, location: string): string {
  if (isAbsolute(location)) return location;
  return relative(root, resolve(here, location)).split(sep).join('/') || '.';
}

/** The templates the sources offer (first source wins), loaded, by name. */
async function availableTemplates(
  root: string,
  sources: readonly SourceSpec[],
  flags: InitFlags,
): Promise<Map<string, LoadedTemplate>> {
  const resolved = await resolveSources(sources, {
    root,
    ...(flags.offline === true ? { offline: true } : {}),
    ...(flags.trust === true ? { trust: true } : {}),
  });
  const out = new Map<string, LoadedTemplate>();
  for (const location of listTemplates(resolved).templates) {
    const t = loadTemplate(location).template;
    if (t) out.set(t.name, t);
  }
  return out;
}

export interface Answers {
  readonly name: string;
  readonly author: string;
  readonly summary: string;
  readonly license: string;
  readonly templates: readonly string[];
}

/** The module's facts and templates: from flags, else asked on a terminal (unless --yes). */
async function gather(
  io: Io,
  root: string,
  flags: InitFlags,
  available: ReadonlyMap<string, LoadedTemplate>,
  ask: Ask,
): Promise<Answers> {
  const prompting = io.interactive && flags.yes !== true && flags.name === undefined;
  if (flags.name === undefined && !prompting) {
    throw new UsageError(
      'init needs the module name: pass --name author-module',
      `for example \`pantograph init ${basename(root)} --name acme-${moduleGuess(root)}\``,
    );
  }
  const question = async (text: string, fallback: string): Promise<string> => {
    const answer = (await ask(fallback === '' ? `${text}: ` : `${text} [${fallback}]: `)).trim();
    return answer === '' ? fallback : answer;
  };
  let name = flags.name ?? '';
  if (prompting) {
    name = await question('Module name (author-module)', `acme-${moduleGuess(root)}`);
  }
  const match = MODULE_NAME.exec(name);
  if (!match) {
    throw new UsageError(
      `'${name}' is not a module name of the form author-module`,
      'the author is letters and digits; the module starts with a lower-case letter, then lower-case letters, digits and underscores (e.g. acme-ntp)',
    );
  }
  const fullName = `${match[1]}-${match[2]}`;
  let author = flags.author ?? match[1]!;
  let summary = flags.summary ?? `A Puppet module to manage ${match[2]}.`;
  let license = flags.license ?? 'Apache-2.0';
  let templates = listOf(flags.templates);
  if (prompting) {
    author = flags.author ?? (await question('Author', author));
    summary = flags.summary ?? (await question('Summary', summary));
    license = flags.license ?? (await question('License (SPDX identifier)', license));
    if (flags.templates === undefined) {
      const optional = [...available.values()].filter((t) => !t.manifest.always_apply);
      // Each description folds under the descriptions' column (after two spaces, the name, a space).
      sayErr(
        io,
        `Opt-in templates:\n${optional.map((t) => `  ${t.name.padEnd(16)} ${firstSentence(t.manifest.description)}\n`).join('')}`,
        19,
      );
      templates = listOf(await question('Templates to apply, comma-separated', ''));
    }
  }
  for (const t of templates) {
    if (!available.has(t)) {
      throw new UsageError(
        `unknown template '${t}': no template source has it`,
        didYouMeanHint(t, available.keys()) ?? `available: ${[...available.keys()].join(', ')}`,
      );
    }
  }
  return { name: fullName, author, summary, license, templates: [...new Set(templates)] };
}

function listOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A module name from the directory's name (`puppet-ntp` -> `ntp`), or `example`. */
function moduleGuess(root: string): string {
  const guess = basename(root)
    .toLowerCase()
    .replace(/^puppet-/, '')
    .replace(/^[a-z0-9]+-/, '')
    .replace(/[^a-z0-9_]/g, '_');
  return /^[a-z][a-z0-9_]*$/.test(guess) ? guess : 'example';
}

function firstSentence(text: string): string {
  const end = text.search(/[.:](\s|$)/);
  return end < 0 ? text : text.slice(0, end);
}

/** Writes `metadata.json` and `.sync.yml`; `undo` removes them and the directories it created. */
function writeProject(root: string, a: Answers, sources: readonly SourceSpec[]): { undo(): void } {
  const made = mkdirSync(root, { recursive: true });
  const files = [join(root, 'metadata.json'), join(root, '.sync.yml')];
  writeFileSync(files[0]!, metadataText(a), { flag: 'wx' });
  try {
    writeFileSync(files[1]!, syncText(a, sources), { flag: 'wx' });
  } catch (e) {
    unlinkSync(files[0]!);
    throw e;
  }
  return {
    undo() {
      for (const f of files) rmQuiet(() => unlinkSync(f));
      if (made === undefined) return;
      // Created directories, deepest first, while empty.
      for (let d = root; d.length >= made.length; d = dirname(d)) rmQuiet(() => rmdirSync(d));
    },
  };
}

function rmQuiet(fn: () => void): void {
  try {
    fn();
  } catch {
    // already gone, or not empty
  }
}

/** A minimal Forge metadata.json. */
export function metadataText(a: Answers): string {
  const metadata = {
    name: a.name,
    version: '0.1.0',
    author: a.author,
    summary: a.summary,
    license: a.license,
    source: '',
    dependencies: [],
    operatingsystem_support: [
      { operatingsystem: 'Debian', operatingsystemrelease: ['12'] },
      { operatingsystem: 'RedHat', operatingsystemrelease: ['9'] },
      { operatingsystem: 'Ubuntu', operatingsystemrelease: ['22.04'] },
    ],
    requirements: [{ name: 'puppet', version_requirement: '>= 7.0.0 < 9.0.0' }],
  };
  return `${JSON.stringify(metadata, null, 2)}\n`;
}

/** The `.sync.yml` of the new project. */
export function syncText(a: Answers, sources: readonly SourceSpec[]): string {
  const lines = [
    '# Pantograph keeps this module in line with its templates: change settings here, then run',
    '# `pantograph apply --diff`. `pantograph show <template>` lists the settings of a template.',
    'pdk_template:',
    '  version: 2',
  ];
  if (sources.length > 1) {
    lines.push('  template_sources:');
    for (const s of sources) {
      lines.push(
        s.type === 'default'
          ? '    - default'
          : `    - { type: ${s.type}, location: ${JSON.stringify(s.location)} }`,
      );
    }
  }
  lines.push(`  templates: [${a.templates.join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

/** The directory as the user will type it: relative when inside the working directory, else absolute. */
function shownPath(cwd: string, root: string): string {
  const rel = relative(cwd, root);
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? root : rel;
}

/** What to do next: a command and what it is for. */
interface Step {
  readonly command: string;
  readonly comment?: string;
}

function nextSteps(
  shown: string,
  a: Answers,
  available: ReadonlyMap<string, LoadedTemplate>,
): { created: string; next: Step[] } {
  const always = [...available.values()].filter((t) => t.manifest.always_apply).map((t) => t.name);
  const optional = [...available.values()].filter(
    (t) => !t.manifest.always_apply && !a.templates.includes(t.name),
  );
  const applied = [...a.templates, ...always.filter((t) => !a.templates.includes(t))];
  return {
    created: `Created module ${a.name} in ${shown} with ${applied.length} templates: ${applied.join(', ')}.\n`,
    next: [
      ...(shown === '.' ? [] : [{ command: `cd ${shown}` }]),
      {
        command: 'pantograph show <template>',
        comment: 'its settings; change them under its name in .sync.yml',
      },
      { command: 'pantograph apply --diff', comment: 'apply what you changed, showing the diffs' },
      ...(optional.length > 0
        ? [
            {
              command: 'pantograph add template NAME',
              comment: `opt-in: ${optional.map((t) => t.name).join(', ')}`,
            },
          ]
        : []),
      { command: 'pantograph status --check', comment: 'in CI: fails when files drift from the templates' },
    ],
  };
}

/** Where a next step's comment begins: after the commands' column and `# `. */
const STEP_COMMENT = 38;

/**
 * The steps as a shell snippet: each comment beside its command, folded under the comment's text; on a
 * terminal too narrow for that (fewer than 40 columns left for the comments), each comment on the line
 * before its command (each of its lines a comment, for copying), so that no comment becomes a column
 * of single words.
 */
function stepsText(steps: readonly Step[], width: number | undefined): string {
  const beside = steps.map(({ command, comment }) =>
    comment === undefined ? `  ${command}` : `  ${command.padEnd(STEP_COMMENT - 4)}# ${comment}`,
  );
  const fits = width === undefined || beside.every((line) => line.length <= width);
  const lines =
    fits || width - STEP_COMMENT >= 40
      ? beside.map((line) => fold(line, width, STEP_COMMENT))
      : steps.map(({ command, comment }) =>
          comment === undefined
            ? `  ${command}`
            : `${fold(`  # ${comment}`, width, 4).replaceAll('\n    ', '\n  # ')}\n  ${command}`,
        );
  return `\nNext steps:\n${lines.join('\n')}\n`;
}
