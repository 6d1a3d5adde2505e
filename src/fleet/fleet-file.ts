/**
 * The fleet file (`fleet.yml`, schemas/fleet.schema.json): the repositories a fleet keeps in line, how to
 * select them, and how changes are committed, pushed and proposed. Read with every value's position, so
 * each mistake is reported at file:line:col, all at once, before any repository is touched.
 */

import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError, problem } from '../engine/errors.js';
import { type SchemaViolation, shippedSchema, violationProblems } from '../engine/json-schema.js';
import { type Data, type DataMap, isMap, type Position, type PositionLookup } from '../engine/model.js';
import type { Problem } from '../engine/render-plan.js';
import { credentialsWarning } from '../engine/sources/credentials.js';
import { parseYamlData } from '../engine/yaml-data.js';
import { maskCredentials } from '../shared/url-credentials.js';
import { BRANCH_HINT, branchNameProblem } from './branch-name.js';
import { MiB, readInputText } from './input-text.js';
import { type DuplicateEntry, duplicateEntries } from './repository-identity.js';
import { type SettingOrigin, settingOrigins } from './setting-origins.js';

export const FLEET_FILE = 'fleet.yml';
export const DEFAULT_WORKDIR = '.pantograph-fleet';
export const DEFAULT_BRANCH = 'pantograph/update';
/** Far above any real fleet file: two thousand repositories with settings each take a few hundred KiB. */
export const MAX_FLEET_FILE_BYTES = MiB;

export type ForgeType = 'github' | 'gitlab';

export interface FleetRepository {
  /** Plain name (letters, digits, `._-`): the clone's directory under the workdir. */
  readonly name: string;
  /** A git remote cloned into the workdir (a relative local path is made absolute). */
  readonly url?: string;
  /** A project directory used in place (absolute). */
  readonly path?: string;
  /** The branch changes are committed on. */
  readonly branch: string;
  /** The branch work starts from; `undefined`: the remote's HEAD. */
  readonly base?: string;
  readonly labels: readonly string[];
  /** Merged into the repository's `.sync.yml` settings (defaults' first, then the repository's own). */
  readonly settings: DataMap;
  /** Where each of `settings` is written in the fleet file. */
  readonly settingOrigins: readonly SettingOrigin[];
  /**
   * The repository's own `template_sources` (filesystem locations made absolute), in place of the fleet's;
   * `undefined`: the fleet's, if any.
   */
  readonly templateSources?: readonly Data[];
  /** `owner/name` or the GitLab project path; `undefined`: taken from the URL. */
  readonly forgeProject?: string;
  /** Where the entry is declared. */
  readonly position: Position;
}

export interface FleetForge {
  readonly type: ForgeType;
  readonly api: string;
  /** The environment variable holding the token (the token is read when needed, never stored). */
  readonly tokenEnv: string;
}

export interface Fleet {
  /** Absolute path of the fleet file. */
  readonly file: string;
  /** Where git repositories are cloned (absolute). */
  readonly workdir: string;
  /** Replaces `pdk_template.template_sources` in every repository; filesystem locations made absolute. */
  readonly templateSources?: readonly Data[];
  /**
   * The V1 template repository or modulesync configuration (`URL[#REF]` or a directory, made absolute)
   * that renders every repository whose `.sync.yml` has no `pdk_template`, as `--template-url` does.
   */
  readonly templateUrl?: string;
  /**
   * `template_url` is a directory the fleet file names by a relative path: each repository's lock then
   * records it relative to the repository (as `--template-url ../config` does), not as a path of this disk.
   */
  readonly templateUrlRelative?: boolean;
  /** Where each value of the file is, by JSON pointer (`/template_sources/0`). */
  readonly positions: PositionLookup;
  readonly commit: { readonly message?: string; readonly author?: string };
  readonly forge?: FleetForge;
  readonly pullRequest: { readonly title?: string; readonly labels: readonly string[] };
  /** Group name -> names or name globs. */
  readonly groups: ReadonlyMap<string, readonly string[]>;
  readonly repositories: readonly FleetRepository[];
  /** Warnings found while reading (errors throw). */
  readonly problems: readonly Problem[];
}

const FORGE_DEFAULTS: Record<ForgeType, { api: string; tokenEnv: string }> = {
  github: { api: 'https://api.github.com', tokenEnv: 'GITHUB_TOKEN' },
  gitlab: { api: 'https://gitlab.com/api/v4', tokenEnv: 'GITLAB_TOKEN' },
};

/** Reads and checks a fleet file. Throws EngineError (FLEET_*) with every problem and its position. */
export function loadFleet(file: string): Fleet {
  const path = resolve(file);
  const text = readInputText(path, {
    code: 'FLEET_READ',
    maxBytes: MAX_FLEET_FILE_BYTES,
    what: 'fleet file',
    afterFix: 'run the fleet command again',
    missing: () =>
      new EngineError('FLEET_NOT_FOUND', `no fleet file ${path}`, {
        hint: `write a ${FLEET_FILE} listing the repositories (see the README, "Many repositories"), or pass --fleet FILE`,
      }),
  });
  return parseFleet(text, path);
}

/** Parses fleet file text; `file` labels positions and anchors relative paths. */
export function parseFleet(text: string, file: string): Fleet {
  const parsed = parseYamlData(text, file, { version: '1.2', errorCode: 'FLEET_YAML' });
  const at = (pointer: string) => parsed.positions.positionOf(pointer);
  const fail = (problems: readonly Problem[]): never => {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
    throw new EngineError(first.code as 'FLEET_INVALID', `${first.message}${more}`, {
      position: first.line !== undefined ? { file, line: first.line, column: first.column ?? 1 } : undefined,
      hint: first.hint,
      problems,
    });
  };
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  if (parsed.data === undefined || errors.length > 0) fail(errors.length > 0 ? errors : parsed.problems);
  const data = parsed.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    fail([
      problem(
        'error',
        'FLEET_INVALID',
        'a fleet file must be a mapping with `version` and `repositories`',
        at(''),
      ),
    ]);
  }
  const top = data as DataMap;
  const schemaProblems = violationProblems(
    withOneSource(shippedSchema('fleet').validate(top), top),
    parsed.positions,
    'FLEET_INVALID',
    (pointer) => pointer || basename(file), // the file itself: "fleet.yml has no 'version'"
  );
  if (schemaProblems.length > 0) fail(schemaProblems);

  const dir = dirname(file);
  const defaults = (top.defaults ?? {}) as DataMap;
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  const repositories = ((top.repositories ?? []) as DataMap[]).map((entry, index) => {
    const name = entry.name as string;
    const first = seen.get(name);
    if (first !== undefined) {
      problems.push(
        problem(
          'error',
          'FLEET_DUPLICATE',
          `repository '${name}' is listed twice (first as entry ${first + 1})`,
          at(`/repositories/${index}/name`),
          'each repository needs its own name: it names its clone',
        ),
      );
    }
    seen.set(name, index);
    return repositoryOf(entry, defaults, dir, index, at(`/repositories/${index}`));
  });
  // Branch names git would refuse: here, once, rather than in every repository at its checkout.
  const branchAt = (value: unknown, pointer: string) => {
    if (typeof value !== 'string') return;
    const why = branchNameProblem(value);
    if (why !== undefined) {
      problems.push(
        problem(
          'error',
          'FLEET_INVALID',
          `'${value}' is not a valid branch name for git: it ${why}`,
          at(pointer),
          BRANCH_HINT,
        ),
      );
    }
  };
  branchAt(defaults.branch, '/defaults/branch');
  branchAt(defaults.base, '/defaults/base');
  ((top.repositories ?? []) as DataMap[]).forEach((entry, index) => {
    branchAt(entry.branch, `/repositories/${index}/branch`);
    branchAt(entry.base, `/repositories/${index}/base`);
  });
  ((top.repositories ?? []) as DataMap[]).forEach((entry, index) => {
    const why = typeof entry.url === 'string' ? fileUrlProblem(entry.url) : undefined;
    if (why !== undefined) {
      problems.push(
        problem('error', 'FLEET_INVALID', why.message, at(`/repositories/${index}/url`), why.hint),
      );
    }
  });
  for (const d of duplicateEntries(repositories)) {
    problems.push(duplicateProblem(repositories, d, at(`/repositories/${d.index}/${d.key}`)));
  }
  const groups = new Map<string, readonly string[]>();
  for (const [group, members] of Object.entries((top.groups ?? {}) as DataMap)) {
    groups.set(group, members as string[]);
  }
  if (problems.length > 0) fail(problems);

  const forgeData = top.forge as DataMap | undefined;
  const forgeType = forgeData?.type as ForgeType | undefined;
  const commit = (top.commit ?? {}) as DataMap;
  const pr = (top.pull_request ?? {}) as DataMap;
  return {
    file,
    positions: parsed.positions,
    workdir: resolve(dir, typeof top.workdir === 'string' ? top.workdir : DEFAULT_WORKDIR),
    ...(Array.isArray(top.template_sources)
      ? { templateSources: top.template_sources.map((s) => absoluteSource(s, dir)) }
      : {}),
    ...(typeof top.template_url === 'string'
      ? {
          templateUrl: absoluteTemplateUrl(top.template_url, dir),
          ...(looksLikeLocalPath(top.template_url) &&
          !top.template_url.startsWith('~/') &&
          !isAbsolute(top.template_url)
            ? { templateUrlRelative: true }
            : {}),
        }
      : {}),
    commit: {
      ...(typeof commit.message === 'string' ? { message: commit.message } : {}),
      ...(typeof commit.author === 'string' ? { author: commit.author } : {}),
    },
    ...(forgeType
      ? {
          forge: {
            type: forgeType,
            api: ((forgeData?.api as string | undefined) ?? FORGE_DEFAULTS[forgeType].api).replace(
              /\/+$/,
              '',
            ),
            tokenEnv: (forgeData?.token_env as string | undefined) ?? FORGE_DEFAULTS[forgeType].tokenEnv,
          },
        }
      : {}),
    pullRequest: {
      ...(typeof pr.title === 'string' ? { title: pr.title } : {}),
      labels: (pr.labels as string[] | undefined) ?? [],
    },
    groups,
    repositories,
    problems: [
      ...parsed.problems.filter((p) => p.severity === 'warning'),
      ...credentialsWarnings(top, at, file),
    ],
  };
}

/** Two entries of one repository, at the later one, naming the first. */
export function duplicateProblem(
  repositories: readonly FleetRepository[],
  d: DuplicateEntry,
  position: Position | undefined,
): Problem {
  const repo = repositories[d.index]!;
  const first = repositories[d.first]!;
  const where = `entry ${d.first + 1}, line ${first.position.line}`;
  return d.key === 'path'
    ? problem(
        'error',
        'FLEET_DUPLICATE',
        `repository '${repo.name}' is the same directory as '${first.name}' (${where}): ${d.shared}`,
        position,
        'two entries of one directory would be applied in it at once: keep one',
      )
    : problem(
        'error',
        'FLEET_DUPLICATE',
        `repository '${repo.name}' has the same remote as '${first.name}' (${where}): ${d.shared}`,
        position,
        'both would push to that branch: keep one entry (a remote is listed twice only to keep two base branches in line, each entry with its own `base:` and `branch:`)',
      );
}

/** A warning for each template source location, repository URL and forge API in the file that holds a secret. */
function credentialsWarnings(top: DataMap, at: (pointer: string) => Position, file: string): Problem[] {
  const name = basename(file);
  const urls: [string, string][] = [];
  (Array.isArray(top.template_sources) ? top.template_sources : []).forEach((source, i) => {
    const location = isMap(source) ? source.location : undefined;
    if (typeof location === 'string') urls.push([location, `/template_sources/${i}/location`]);
  });
  if (typeof top.template_url === 'string') urls.push([top.template_url, '/template_url']);
  ((top.repositories ?? []) as DataMap[]).forEach((entry, i) => {
    if (typeof entry.url === 'string') urls.push([entry.url, `/repositories/${i}/url`]);
    (Array.isArray(entry.template_sources) ? entry.template_sources : []).forEach((source, j) => {
      const location = isMap(source) ? source.location : undefined;
      if (typeof location === 'string') {
        urls.push([location, `/repositories/${i}/template_sources/${j}/location`]);
      }
    });
  });
  // The forge's API too: its token belongs in the variable `token_env` names.
  const api = isMap(top.forge) ? top.forge.api : undefined;
  if (typeof api === 'string') urls.push([api, '/forge/api']);
  return urls.flatMap(([url, pointer]) => credentialsWarning(url, at(pointer), name) ?? []);
}

/**
 * ajv says "needs url", "needs path" and "must match exactly one schema in oneOf" for one mistake: a
 * repository must have one of the two, and only one. Said once, in words: which of the two mistakes.
 */
function withOneSource(violations: readonly SchemaViolation[], top: DataMap): SchemaViolation[] {
  const entry = /^\/repositories\/(\d+)$/;
  const about = (v: SchemaViolation) =>
    entry.test(v.pointer) &&
    (v.keyword === 'oneOf' ||
      (v.keyword === 'required' && ['url', 'path'].includes(String(v.params.missingProperty))));
  const out = violations.filter((v) => !about(v));
  const repositories = Array.isArray(top.repositories) ? top.repositories : [];
  for (const pointer of new Set(violations.filter(about).map((v) => v.pointer))) {
    const repository = repositories[Number(entry.exec(pointer)?.[1])];
    const both = isMap(repository) && 'url' in repository && 'path' in repository;
    out.push({
      pointer,
      keyword: 'oneOf',
      params: {},
      message: both
        ? 'has both `url:` and `path:`: keep one, `url:` for a git remote or `path:` for a directory'
        : 'needs `url:` (a git remote) or `path:` (a directory)',
    });
  }
  return out;
}

function repositoryOf(
  entry: DataMap,
  defaults: DataMap,
  dir: string,
  index: number,
  position: Position,
): FleetRepository {
  const pick = (key: string) => (entry[key] ?? defaults[key]) as string | undefined;
  const url = entry.url as string | undefined;
  const base = pick('base');
  const forgeProject = entry.forge_project as string | undefined;
  return {
    name: entry.name as string,
    ...(url !== undefined ? { url: looksLikeLocalPath(url) ? resolve(dir, url) : url } : {}),
    ...(typeof entry.path === 'string' ? { path: resolve(dir, entry.path) } : {}),
    branch: pick('branch') ?? DEFAULT_BRANCH,
    ...(base !== undefined ? { base } : {}),
    labels: [
      ...((defaults.labels as string[] | undefined) ?? []),
      ...((entry.labels as string[] | undefined) ?? []),
    ],
    settings: mergeSettings((defaults.settings ?? {}) as DataMap, (entry.settings ?? {}) as DataMap),
    settingOrigins: settingOrigins(
      (entry.settings ?? {}) as DataMap,
      (defaults.settings ?? {}) as DataMap,
      `/repositories/${index}`,
    ),
    ...(Array.isArray(entry.template_sources)
      ? { templateSources: entry.template_sources.map((s) => absoluteSource(s, dir)) }
      : {}),
    ...(forgeProject !== undefined ? { forgeProject } : {}),
    position,
  };
}

/**
 * What is wrong with a `file:` URL, if anything: it names a directory on this machine, so a host other
 * than `localhost` (which git ignores, cloning the path here) is a mistake, as is a path that is no path.
 */
function fileUrlProblem(url: string): { message: string; hint: string } | undefined {
  if (!/^file:/i.test(url)) return undefined;
  try {
    fileURLToPath(url);
    return undefined;
  } catch (e) {
    let host = '';
    try {
      host = new URL(url).hostname;
    } catch {}
    const message =
      host !== '' && host !== 'localhost'
        ? `'${maskCredentials(url)}' names the host '${host}': a file:// URL is a directory on this machine`
        : `'${maskCredentials(url)}' is not a file:// URL of a directory (${(e as Error).message})`;
    return {
      message,
      hint: 'write file:///path/to/repo.git (three slashes) or the path itself; a repository on another host is ssh://host/path or host:path',
    };
  }
}

/** A URL without a scheme and without git's `host:path` form is a path on this machine. */
function looksLikeLocalPath(url: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return false;
  // git's scp-like form, `git@host:org/repo.git`: a colon before the first slash.
  return !/^[^/]*:/.test(url);
}

/** A local `template_url` is relative to the fleet file, wherever the fleet runs from; `#REF` kept. */
function absoluteTemplateUrl(url: string, dir: string): string {
  if (!looksLikeLocalPath(url) || url.startsWith('~/')) return url;
  const hash = url.indexOf('#');
  return hash < 0 ? resolve(dir, url) : `${resolve(dir, url.slice(0, hash))}${url.slice(hash)}`;
}

function absoluteSource(source: Data, dir: string): Data {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return source;
  const spec = source as DataMap;
  if (spec.type === 'filesystem' && typeof spec.location === 'string' && !isAbsolute(spec.location)) {
    return { ...spec, location: join(dir, spec.location) };
  }
  if (spec.type === 'git' && typeof spec.location === 'string' && looksLikeLocalPath(spec.location)) {
    return { ...spec, location: resolve(dir, spec.location) };
  }
  return spec;
}

/** Deep merge of settings mappings: the second's values win; arrays are replaced, not joined. */
export function mergeSettings(base: DataMap, over: DataMap): DataMap {
  const out: DataMap = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const previous = out[key];
    out[key] = isMap(previous) && isMap(value) ? mergeSettings(previous, value) : value;
  }
  return out;
}
