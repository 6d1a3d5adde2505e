/**
 * Loading a V1 project (a `.sync.yml` without `pdk_template`) whose template source is a V1 repository or
 * a modulesync configuration: the source from `--template-url` or metadata.json, resolved like any source
 * (git: cached, locked, `--offline`), checked for `moduleroot/` and trusted, as one always-applied
 * template. Its `.sync.yml` is read by the Ruby worker as PDK (or msync) reads it; here it is parsed only
 * for positions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { LOCK_FILE } from '../../shared/project-files.js';
import { maskCredentials } from '../../shared/url-credentials.js';
import { EngineError } from '../errors.js';
import type { DataMap, ResolvedSource, SyncConfig } from '../model.js';
import { modulesyncMark, modulesyncModuleError } from '../module-manager.js';
import { SYNC_FILE } from '../project-config.js';
import type { Problem } from '../render-plan.js';
import { resolveSources } from '../sources/index.js';
import type { TemplateFence } from '../template-fence.js';
import { parseYamlData } from '../yaml-data.js';
import { lockedTemplateUrlPosition } from './locked-template-url.js';
import { modulesyncModuleName } from './modulesync-module-name.js';
import { type RubyRepositoryKind, rubyRepositoryKind } from './repository.js';
import { type TemplateUrlOrigin, v1Source } from './template-url.js';
import { templateUrlPosition } from './template-url-position.js';

/** What a V1 project adds to a Project. */
export interface V1Project {
  /** The V1 repository, resolved. */
  readonly source: ResolvedSource;
  /** The template URL as given (`<url>#<ref>`). */
  readonly url: string;
  readonly origin: TemplateUrlOrigin;
  /** How its ERB runs: PDK's V1 renderer, or `msync update`'s (the repository's layout decides). */
  readonly kind: RubyRepositoryKind;
  /**
   * modulesync only: the module as managed_modules.yml names it, `name` or `namespace/name` (msync's
   * `:puppet_module` and `@metadata[:module_name]`); the project directory's name unless given.
   */
  readonly modulesyncModule: string;
}

/** Options of loadProject that matter here (kept structural: project.ts imports this module). */
export interface V1LoadOptions {
  readonly offline?: boolean;
  readonly trust?: boolean;
  readonly distrust?: { readonly hint: string };
  readonly fence?: TemplateFence;
  readonly env?: NodeJS.ProcessEnv;
  readonly gitBinary?: string;
  readonly syncText?: string;
  readonly templateUrl?: string;
  readonly templateRef?: string;
  readonly modulesyncModule?: string;
  readonly lockedCommit?: (spec: SyncConfig['sources'][number], index: number) => string | undefined;
  readonly onProgress?: (text: string) => void;
  readonly onNote?: (text: string) => void;
}

export interface V1Loaded {
  readonly config: SyncConfig;
  readonly v1: V1Project;
}

/** A V1 repository (or modulesync configuration) resolved without being run (see locateV1). */
export interface LocatedV1 {
  readonly kind: RubyRepositoryKind;
  /** As given or recorded, credentials masked. */
  readonly url: string;
  /** Its checkout: a directory, or a git source's commit in the cache. */
  readonly dir: string;
}

/**
 * The V1 repository or modulesync configuration a project names, found and resolved as loadV1 resolves
 * it but checked for no trust, since none of its code runs: for what its data says (`config_defaults.yml`,
 * the files of `moduleroot/`) where its Ruby may not run (the language server without `--trust`).
 * Undefined when none is named, or it is not there (offline and not cached), or it is no such repository.
 */
export async function locateV1(
  dir: string,
  options: V1LoadOptions,
  metadata: DataMap,
): Promise<LocatedV1 | undefined> {
  const root = resolve(dir);
  let source: ReturnType<typeof v1Source>;
  let resolved: ResolvedSource | undefined;
  try {
    source = v1Source(root, { url: options.templateUrl, ref: options.templateRef }, metadata, options.fence);
    if (!source) return undefined;
    [resolved] = await resolveSources([source.spec], {
      root,
      ...(options.offline !== undefined ? { offline: options.offline } : {}),
      trust: false,
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
      ...(options.lockedCommit !== undefined ? { lockedCommit: options.lockedCommit } : {}),
    });
  } catch (e) {
    if (e instanceof EngineError) return undefined;
    throw e;
  }
  const kind = resolved ? rubyRepositoryKind(resolved.dir) : undefined;
  if (!resolved || kind === undefined) return undefined;
  return { kind, url: maskCredentials(source.url), dir: resolved.dir };
}

/** The module's name in the configuration's managed_modules.yml (a note when not its directory's, or unread). */
function foundModuleName(configDir: string, root: string, metadata: DataMap, options: V1LoadOptions): string {
  const found = modulesyncModuleName(configDir, root, metadata.name);
  if (found.from !== undefined) {
    options.onNote?.(
      `the module is '${found.name}' of ${found.list} (found by its ${found.from}; the directory is '${basename(root)}')`,
    );
  }
  if (found.unread !== undefined) {
    options.onNote?.(
      `${found.unread}, so the module is named by its directory, '${found.name}' (msync would stop on this configuration)`,
    );
  }
  return found.name;
}

/**
 * The V1 side of a project whose `.sync.yml` raised `notV2`: SYNC_V1 (no `pdk_template`), or SYNC_NOT_FOUND
 * (PDK modules need no `.sync.yml`). Without a V1 source (no option, no metadata.json `template-url`) that
 * error is thrown again, SYNC_V1 with both ways on in its hint.
 */
export async function loadV1(
  dir: string,
  options: V1LoadOptions,
  metadata: DataMap,
  notV2: EngineError,
): Promise<V1Loaded> {
  const root = resolve(dir);
  const file = join(root, SYNC_FILE);
  const source = v1Source(
    root,
    { url: options.templateUrl, ref: options.templateRef },
    metadata,
    options.fence,
  );
  if (!source) {
    // modulesync's .sync.yml has the V1 shape, but neither `convert` nor a V1 run is for it.
    const msync = modulesyncMark(root);
    if (msync !== undefined)
      throw modulesyncModuleError(msync, notV2.code === 'SYNC_V1' ? notV2.position : undefined);
    if (notV2.code !== 'SYNC_V1') throw notV2;
    throw new EngineError(notV2.code, notV2.message, {
      position: notV2.position,
      hint:
        'run `pantograph convert` to convert it to V2 once; or render it as it is with its V1 template repository: ' +
        '--template-url URL[#REF] (PDK writes it as `template-url` in metadata.json)',
    });
  }
  // A module with .msync.yml is modulesync's: messages name what the user calls its repository.
  const inModulesync = modulesyncMark(root) !== undefined;
  const what = inModulesync ? 'the modulesync configuration' : 'the V1 template repository';
  const instead = inModulesync
    ? 'or run `pantograph fleet import-modulesync` to move the modules to V2 templates'
    : 'or run `pantograph convert` once to move this .sync.yml to V2 templates';
  // For an error only: metadata.json (or the lock) is read again to find the key.
  const at = () =>
    source.origin === 'metadata.json'
      ? templateUrlPosition(root)
      : source.origin === LOCK_FILE
        ? lockedTemplateUrlPosition(root, source.spec.location)
        : undefined;
  const from = source.origin === LOCK_FILE ? `recorded in ${LOCK_FILE} by an earlier run` : source.origin;
  // A V1 repository's templates are Ruby code run with the user's rights, unsandboxed: like JavaScript
  // hooks, only from a source the user trusts (a local one is; a git one with --trust). Checked before
  // anything is fetched.
  if (options.distrust) {
    throw new EngineError(
      'V1_UNTRUSTED',
      `${what} ${source.url} (${from}) runs Ruby code (its ERB templates), which does not run here`,
      // At the top of .sync.yml: what the editor shows is that file's problems.
      { position: { file, line: 1, column: 1 }, hint: options.distrust.hint },
    );
  }
  // A fenced project's own files (a fleet repository's metadata.json or lock) make nothing trusted.
  const ownFenced = options.fence !== undefined && source.origin !== '--template-url';
  if (source.spec.type === 'git' && source.spec.trusted !== true && (options.trust !== true || ownFenced)) {
    throw new EngineError(
      'V1_UNTRUSTED',
      `${what} ${maskCredentials(source.url)} (${from}) runs Ruby code (its ERB templates), and it is not trusted`,
      {
        position: at(),
        hint: ownFenced
          ? `a fleet trusts no template repository a repository names itself (--trust does not count for it); ${options.fence!.hint}`
          : `if you trust ${maskCredentials(source.spec.location)}, run again with --trust; ${instead}`,
      },
    );
  }
  const [resolved] = await resolveSources([source.spec], {
    root,
    ...(options.offline !== undefined ? { offline: options.offline } : {}),
    ...(options.trust !== undefined ? { trust: options.trust } : {}),
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.gitBinary !== undefined ? { gitBinary: options.gitBinary } : {}),
    ...(options.lockedCommit !== undefined ? { lockedCommit: options.lockedCommit } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
  });
  const kind = resolved ? rubyRepositoryKind(resolved.dir) : undefined;
  if (!resolved || kind === undefined) {
    throw new EngineError(
      'V1_NOT_V1_REPOSITORY',
      inModulesync
        ? `${maskCredentials(source.url)} (${from}) is not a modulesync configuration: it needs moduleroot/ and config_defaults.yml`
        : `${maskCredentials(source.url)} (${from}) is not a V1 template repository: it needs both moduleroot/ and moduleroot_init/`,
      {
        position: at(),
        hint: inModulesync
          ? "give the modulesync configuration's directory or git URL: the one with config_defaults.yml and moduleroot/"
          : 'a V2 repository is named in .sync.yml under pdk_template.template_sources; run `pantograph convert` to write one',
      },
    );
  }
  if (source.origin === LOCK_FILE) {
    options.onNote?.(
      `${what} is ${maskCredentials(source.url)}, which an earlier run recorded in ${LOCK_FILE} (--template-url names another)`,
    );
  }
  const text = options.syncText ?? (existsSync(file) ? readFileSync(file, 'utf8') : '');
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML' });
  const problems: Problem[] = [];
  const config: SyncConfig = {
    file,
    root,
    version: 1,
    sources: [source.spec],
    templates: [],
    excluded: [],
    sharedSettings: {},
    unmanaged: [],
    delete: [],
    purge: false,
    post: [],
    settings: {},
    positions: parsed.positions,
    positionOf: (pointer) => parsed.positions.positionOf(pointer),
    document: parsed.document,
    text,
    problems,
  };
  const modulesyncModule =
    options.modulesyncModule ??
    (kind === 'modulesync' ? foundModuleName(resolved.dir, root, metadata, options) : basename(root));
  return {
    config,
    v1: { source: resolved, url: source.url, origin: source.origin, kind, modulesyncModule },
  };
}
