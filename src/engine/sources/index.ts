/**
 * Template sources (DESIGN section 11): resolve the `.sync.yml` list to directories on disk, then look
 * templates up in order; the first source that has a template of a name wins.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { withoutCredentials } from '../../shared/url-credentials.js';
import { EngineError, problem } from '../errors.js';
import type { ResolvedSource, SourceSpec, TemplateLocation } from '../model.js';
import type { PlannedSource, Problem } from '../render-plan.js';
import { resolveDefaultSource } from './default.js';
import { resolveFilesystemSource } from './filesystem.js';
import { resolveGitSource } from './git.js';

export { bundledTemplatesDir } from './default.js';
export { filesystemPath } from './filesystem.js';
export {
  cacheRoot,
  checkoutCommit,
  type GitOptions,
  gitSourceHead,
  gitUrl,
  remoteCacheDir,
  resetGitFetches,
} from './git.js';

/** A template directory name: snake_case. */
export const TEMPLATE_NAME = /^[a-z][a-z0-9_]*$/;

export interface SourceOptions {
  /** Project root: relative filesystem (and local git) locations are relative to it. */
  readonly root: string;
  /** Git: use the cache only. */
  readonly offline?: boolean;
  /** Trust every source (`--trust`), including filesystem sources marked `trusted: false`. */
  readonly trust?: boolean;
  /** Trust none but the bundled default templates, whatever `trust` says (see ProjectOptions.distrust). */
  readonly distrust?: boolean;
  /** Git: the executable (default `git`). */
  readonly gitBinary?: string;
  /** Environment for `PANTOGRAPH_*` variables and git (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Git: the locked commit to use for a source instead of resolving its `ref` (from the lock file). */
  readonly lockedCommit?: (spec: SourceSpec, index: number) => string | undefined;
  /** Hears about long work (a git clone or fetch). */
  readonly onProgress?: (text: string) => void;
}

/**
 * Resolves every source, in parallel. Throws one EngineError listing every source that failed (its code
 * is the first failure's), each naming the source and its `.sync.yml` position.
 */
export async function resolveSources(
  specs: readonly SourceSpec[],
  options: SourceOptions,
): Promise<ResolvedSource[]> {
  const results = await Promise.allSettled(specs.map((spec, i) => resolveSource(spec, i, options)));
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (errors.length === 0) return results.map((r) => (r as PromiseFulfilledResult<ResolvedSource>).value);
  const first = errors[0];
  if (!(first instanceof EngineError)) throw first;
  const problems = errors.flatMap((e) => (e instanceof EngineError ? e.problems : []));
  throw new EngineError(first.code, first.message, { position: first.position, hint: first.hint, problems });
}

/** Resolves one source (the `index` is its place in the search order). */
export async function resolveSource(
  spec: SourceSpec,
  index: number,
  options: SourceOptions,
): Promise<ResolvedSource> {
  const source = await resolveAsSpecified(spec, index, options);
  return options.distrust === true && spec.type !== 'default' ? { ...source, trusted: false } : source;
}

async function resolveAsSpecified(
  spec: SourceSpec,
  index: number,
  options: SourceOptions,
): Promise<ResolvedSource> {
  const env = options.env ?? process.env;
  switch (spec.type) {
    case 'default':
      return resolveDefaultSource(spec, index, env);
    case 'filesystem':
      return resolveFilesystemSource(spec, index, options.root, options.trust === true);
    case 'git': {
      const commit = options.lockedCommit?.(spec, index);
      return resolveGitSource(spec, index, {
        root: options.root,
        env,
        ...(options.offline !== undefined ? { offline: options.offline } : {}),
        ...(options.trust !== undefined ? { trust: options.trust } : {}),
        ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
        ...(commit !== undefined ? { commit } : {}),
        ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
      });
    }
  }
}

/**
 * A source as it is recorded and reported as data (the lock, `list`, `$template['source']`, fleet
 * commits): its location without credentials, so that nothing stored holds a secret and a rotated token
 * changes nothing.
 */
export function sourceIdentity(spec: SourceSpec): string {
  return withoutCredentials(spec.location);
}

/** A resolved source as a plan (and so the lock) records it. */
export function plannedSource(source: ResolvedSource): PlannedSource {
  return {
    type: source.spec.type,
    location: sourceIdentity(source.spec),
    ...(source.spec.ref !== undefined ? { ref: source.spec.ref } : {}),
    ...(source.commit !== undefined ? { commit: source.commit } : {}),
  };
}

/** Whether `dir` holds a template (a `template.json` file). */
function isTemplateDir(dir: string): boolean {
  try {
    return statSync(join(dir, 'template.json')).isFile();
  } catch {
    return false;
  }
}

/** The template `name` from the first source that has it, or undefined. */
export function findTemplate(sources: readonly ResolvedSource[], name: string): TemplateLocation | undefined {
  if (!TEMPLATE_NAME.test(name)) return undefined;
  for (const source of sources) {
    const dir = join(source.dir, name);
    if (isTemplateDir(dir)) return { name, dir, source };
  }
  return undefined;
}

export interface TemplateListing {
  /** Every available template once, from the first source that has it, sorted by name. */
  readonly templates: readonly TemplateLocation[];
  /** Templates hidden by one of the same name in an earlier source. */
  readonly shadowed: readonly TemplateLocation[];
  /** Template directories whose name is not snake_case (they cannot be applied). */
  readonly problems: readonly Problem[];
}

/** Every template of every source. V1 content and other directories are ignored. */
export function listTemplates(sources: readonly ResolvedSource[]): TemplateListing {
  const winners = new Map<string, TemplateLocation>();
  const shadowed: TemplateLocation[] = [];
  const problems: Problem[] = [];
  for (const source of sources) {
    let names: string[];
    try {
      names = readdirSync(source.dir).sort();
    } catch {
      continue; // a missing bundled directory offers nothing
    }
    for (const name of names) {
      const dir = join(source.dir, name);
      if (name.startsWith('.') || !isTemplateDir(dir)) continue;
      if (!TEMPLATE_NAME.test(name)) {
        problems.push(
          problem(
            'error',
            'TEMPLATE_NAME',
            `template directory '${name}' is not snake_case`,
            {
              file: join(dir, 'template.json'),
              line: 1,
              column: 1,
            },
            'rename it with lower-case letters, digits and underscores, starting with a letter',
          ),
        );
        continue;
      }
      const location = { name, dir, source };
      if (winners.has(name)) shadowed.push(location);
      else winners.set(name, location);
    }
  }
  const templates = [...winners.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { templates, shadowed, problems };
}
