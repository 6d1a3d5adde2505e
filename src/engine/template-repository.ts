/**
 * The template repository helpers the authors' tools share (`docs`, `test`, `new`, `ui`): finding the
 * repository from the working directory or `--dir`, and loading its templates.
 */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { isDirectory } from '../shared/path-exists.js';
import { authorProblems } from './author-checks.js';
import { EngineError } from './errors.js';
import type { LoadedTemplate, ResolvedSource, TemplateLocation } from './model.js';
import type { Problem } from './render-plan.js';
import { loadTemplate } from './repository.js';
import { listTemplates } from './sources/index.js';

export interface RepositoryTarget {
  /** Absolute directory of the template repository. */
  readonly dir: string;
  /** Templates named by the location itself (run inside a template directory), else empty. */
  readonly selected: readonly string[];
}

/**
 * The repository the authors' tools work on: `dir` (relative to `cwd`) or `cwd`. A template directory
 * (holding template.json) stands for its repository with that template selected.
 */
export function findRepository(cwd: string, dir?: string): RepositoryTarget {
  const at = resolve(cwd, dir ?? '.');
  if (!isDirectory(at)) {
    throw new EngineError('AUTHOR_NO_REPOSITORY', `${dir ?? at} is not a directory`, {
      hint: 'give the template repository with --dir REPO',
    });
  }
  if (existsSync(join(at, 'template.json'))) return { dir: dirname(at), selected: [basename(at)] };
  // Also with --dir: a wrong -C in CI must fail, not report "0 passed" or "0 READMEs up to date".
  if (!readdirSync(at).some((n) => existsSync(join(at, n, 'template.json')))) {
    const project = existsSync(join(at, '.sync.yml'));
    throw new EngineError('AUTHOR_NO_REPOSITORY', `no template repository in ${at}`, {
      hint: project
        ? 'this is a project (it has .sync.yml), no subdirectory holds a template.json: give the template repository (a location of its template_sources) with --dir REPO'
        : 'no subdirectory holds a template.json: run it in a template repository, or give one with --dir REPO',
    });
  }
  return { dir: at, selected: [] };
}

export interface TemplateRepository {
  readonly dir: string;
  /** The repository as a trusted filesystem source. */
  readonly source: ResolvedSource;
  /** The loaded templates (the selected ones, or all), sorted by name. */
  readonly templates: readonly LoadedTemplate[];
  /** Every template of the repository, loaded, by name (for cross-references). */
  readonly all: ReadonlyMap<string, LoadedTemplate>;
  /** What loading the selected templates found; a template that could not be read is left out. */
  readonly problems: readonly Problem[];
  /** The selected templates that could not be read (their problems are in `problems`). */
  readonly unreadable: readonly TemplateLocation[];
}

/**
 * Loads the repository's templates; `names` selects some (each must exist). The selected ones also get
 * the authors' checks (author-checks.ts): docs and test report what a project would find later.
 */
export function loadRepository(dir: string, names: readonly string[] = []): TemplateRepository {
  const real = realpathSync(dir);
  const source: ResolvedSource = {
    spec: { type: 'filesystem', location: real },
    index: 0,
    dir: real,
    trusted: true,
  };
  const listing = listTemplates([source]);
  const known = listing.templates.map((l) => l.name);
  for (const name of names) {
    if (!known.includes(name)) {
      throw new EngineError('AUTHOR_UNKNOWN_TEMPLATE', `no template '${name}' in ${real}`, {
        hint: didYouMeanHint(name, known) ?? `templates here: ${known.join(', ') || '(none)'}`,
      });
    }
  }
  const all = new Map<string, LoadedTemplate>();
  const problems: Problem[] = [...listing.problems];
  const unreadable: TemplateLocation[] = [];
  for (const location of listing.templates) {
    const load = loadTemplate(location);
    const wanted = names.length === 0 || names.includes(location.name);
    if (wanted) problems.push(...load.problems);
    if (wanted && load.template) problems.push(...authorProblems(load.template));
    if (wanted && !load.template) unreadable.push(location);
    if (load.template) all.set(location.name, load.template);
  }
  const templates = [...all.values()].filter((t) => names.length === 0 || names.includes(t.name));
  return { dir: real, source, templates, all, problems, unreadable };
}
