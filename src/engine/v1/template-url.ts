/**
 * Which V1 repository a project renders with, as PDK chooses it (lib/pdk/util/template_uri.rb): the
 * `--template-url` option, else metadata.json's `template-url`; `<url>#<ref>`, the ref defaulting to `main`
 * as PDK's does for any repository but its own. Neither given, the one the lock records from an earlier
 * run (locked-template-url.ts: a modulesync module names its configuration nowhere else). The result is an
 * ordinary source spec, so git sources are cloned, cached, locked and `--offline` like any other.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCK_FILE } from '../../shared/project-files.js';
import { EngineError } from '../errors.js';
import type { Position, SourceSpec } from '../model.js';
import { fencedBy, fencedError, type TemplateFence } from '../template-fence.js';
import { insideProject, lockedTemplateUrl, lockedTemplateUrlPosition } from './locked-template-url.js';
import { templateUrlPosition } from './template-url-position.js';

/** Where the URL came from, for messages. */
export type TemplateUrlOrigin = '--template-url' | 'metadata.json' | '.pantograph.lock';

export interface V1Source {
  readonly spec: SourceSpec;
  /** The URL as given (with its `#ref`), for messages and `template_dir.uri`. */
  readonly url: string;
  readonly origin: TemplateUrlOrigin;
}

/** PDK's name for its built-in templates, and the paths packaged PDKs wrote into metadata.json. */
const PDK_DEFAULT = 'pdk-default';
const PACKAGED_PATHS = [
  'file:///opt/puppetlabs/pdk/share/cache/pdk-templates.git',
  'file:///C:/Program Files/Puppet Labs/DevelopmentKit/share/cache/pdk-templates.git',
];

/** PDK's default ref for a repository other than its own built-in one. */
export const DEFAULT_V1_REF = 'main';

/**
 * The V1 source of a project: `url` (the option) first, else metadata.json's `template-url`; undefined when
 * neither is given. `ref` (`--template-ref`) replaces the URL's `#ref`. Throws for PDK's built-in templates
 * (Pantograph's default repository is V2) and for a URL that cannot be a repository.
 */
export function v1Source(
  root: string,
  explicit: { readonly url?: string | undefined; readonly ref?: string | undefined },
  metadata: Readonly<Record<string, unknown>>,
  fence?: TemplateFence,
): V1Source | undefined {
  const fromMetadata = typeof metadata['template-url'] === 'string' ? metadata['template-url'] : undefined;
  const fromLock =
    explicit.url === undefined && fromMetadata === undefined ? lockedTemplateUrl(root) : undefined;
  const url = explicit.url ?? fromMetadata ?? fromLock;
  if (url === undefined || url === '') return undefined;
  const origin: TemplateUrlOrigin =
    explicit.url !== undefined ? '--template-url' : fromMetadata !== undefined ? 'metadata.json' : LOCK_FILE;
  // For an error only: metadata.json (or the lock) is read again to find the key.
  const position = (): Position | undefined =>
    origin === 'metadata.json'
      ? templateUrlPosition(root)
      : origin === LOCK_FILE
        ? lockedTemplateUrlPosition(root, url.split('#')[0]!)
        : undefined;
  const hash = url.indexOf('#');
  const bare = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? undefined : url.slice(hash + 1) || undefined;
  const ref = explicit.ref ?? fragment;
  // A git source's errors (a tag that does not exist, a host that does not answer) point at the file that
  // names it, as a V2 source's point at .sync.yml; not when the command line gave the URL or the ref.
  const declaredAt = (): { position?: Position } => {
    const at = origin !== '--template-url' && explicit.ref === undefined ? position() : undefined;
    return at !== undefined ? { position: at } : {};
  };

  if (bare === PDK_DEFAULT || PACKAGED_PATHS.includes(bare)) {
    throw new EngineError(
      'V1_DEFAULT_TEMPLATE',
      `${given(origin, url)} names PDK's built-in templates, which Pantograph does not have: its default templates are V2 and do not read a V1 .sync.yml`,
      {
        position: position(),
        hint: `run \`pantograph convert\` once to move this .sync.yml to V2 for the default templates (it shows the diff first); or name a V1 repository with --template-url, e.g. ${builtInAsRepository(fragment)}`,
      },
    );
  }
  const local = localPath(root, bare);
  if (local !== undefined && origin === LOCK_FILE && insideProject(root, local)) {
    throw new EngineError(
      'V1_TEMPLATE_URL',
      `${given(origin, url)} is a directory inside the project: its Ruby is not run on the lock's word`,
      {
        position: position(),
        hint: 'the lock is a file of the repository, which anyone may change; name the repository with --template-url',
      },
    );
  }
  // A fleet repository's own files (metadata.json, the lock) may not name a sibling clone, nor itself.
  const fenced =
    local !== undefined && origin !== '--template-url' && fence ? fencedBy(local, root, fence) : undefined;
  if (fenced !== undefined) {
    throw fencedError(given(origin, url), local!, fenced, position(), fence!);
  }
  if (local !== undefined) {
    if (!existsSync(local) || !statSync(local).isDirectory()) {
      throw new EngineError(
        'V1_TEMPLATE_URL',
        `the V1 template repository ${local} (${origin}) does not exist`,
        {
          position: position(),
          hint: 'check the path, or give another with --template-url',
        },
      );
    }
    // A local git repository with a ref is checked out at that ref, as PDK does; without a ref, or when it
    // is no repository, its files are used as they are. Either way it is the user's own disk: trusted.
    const repository = existsSync(join(local, '.git')) || existsSync(join(local, 'HEAD'));
    const location = asNamed(root, bare, local);
    const spec: SourceSpec =
      repository && ref !== undefined
        ? { type: 'git', location, ref, trusted: true, ...declaredAt() }
        : { type: 'filesystem', location, trusted: true };
    return { spec, url, origin };
  }
  if (!/^(?:[a-z][a-z0-9+.-]*:\/\/|[^@/\s]+@[^:/\s]+:)/i.test(bare)) {
    throw new EngineError('V1_TEMPLATE_URL', `${given(origin, url)} is neither a path nor a git URL`, {
      position: position(),
      hint: 'give a git URL (https://..., git@host:org/repo.git) or a directory, with #ref for a branch or tag',
    });
  }
  return { spec: { type: 'git', location: bare, ref: ref ?? DEFAULT_V1_REF, ...declaredAt() }, url, origin };
}

/**
 * PDK's built-in templates of version X are pdk-templates at its tag X (the `template-ref` PDK records
 * names it), so the same files render from there: the version the module names, else the followed tag.
 */
function builtInAsRepository(version: string | undefined): string {
  const tag = version !== undefined && /^\d+(?:\.\d+)+$/.test(version) ? version : '3.5.1';
  const why = version === tag ? ` (PDK ${tag}'s built-in templates are pdk-templates at that tag)` : '';
  return `https://github.com/puppetlabs/pdk-templates#${tag} with --trust${why}`;
}

/** The URL and where the user gave it: `--template-url 'pdk-default'`, `metadata.json's template-url 'x'`. */
function given(origin: TemplateUrlOrigin, url: string): string {
  if (origin === LOCK_FILE) return `the repository '${url}' an earlier run recorded in ${LOCK_FILE}`;
  return origin === '--template-url' ? `--template-url '${url}'` : `metadata.json's template-url '${url}'`;
}

/**
 * The location the lock records for a local directory: a relative path stays relative to the project
 * (`../modulesync_config`), so that a lock committed to the repository names the directory beside it on
 * every checkout, not a path on one person's disk; an absolute path, `~/` or `file://` URL is made
 * absolute, as named. Sources resolve a relative location against the project, as `.sync.yml`'s do.
 */
function asNamed(root: string, bare: string, local: string): string {
  if (!isRelativePath(bare)) return local;
  const rel = relative(resolve(root), local).split(sep).join('/');
  return rel === '' ? '.' : rel.startsWith('../') || rel === '..' ? rel : `./${rel}`;
}

/** `.`, `..`, `./x`, `../x`: a path relative to the project. */
function isRelativePath(bare: string): boolean {
  return bare === '.' || bare === '..' || bare.startsWith('./') || bare.startsWith('../');
}

/** The directory a `file://` URL or a path names; undefined for a remote URL. */
function localPath(root: string, bare: string): string | undefined {
  if (bare.startsWith('file://')) {
    try {
      return fileURLToPath(bare);
    } catch {
      return decodeURIComponent(bare.slice('file://'.length));
    }
  }
  if (isAbsolute(bare) || isRelativePath(bare) || bare.startsWith('~/')) {
    return bare.startsWith('~/') ? join(process.env.HOME ?? '', bare.slice(2)) : resolve(root, bare);
  }
  return undefined;
}
