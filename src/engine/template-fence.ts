/**
 * Where a project's own files may not point for templates. A fleet runs repositories that are other
 * people's input, cloned side by side in its workdir: a directory one of them names as its template
 * repository (a filesystem or local git source in `.sync.yml`, metadata.json's `template-url`, the V1
 * repository its lock remembers) would be trusted as "a directory on your disk", and so a repository could
 * make the fleet run a sibling clone's (or its own) hooks and Ruby. Inside the fence such a directory is
 * refused; outside it, it is the user's disk as for one project. Trust comes from the fleet file only
 * (`--trust` trusts the sources it names): a repository's own git sources are never trusted, whatever its
 * `trusted: true` says.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from './errors.js';
import type { Position, SourceSpec } from './model.js';
import { filesystemPath, gitUrl } from './sources/index.js';
import { insideProject } from './v1/locked-template-url.js';

export interface TemplateFence {
  /**
   * Absolute directories a project's own files may not name as a template repository (the fleet's workdir,
   * its repositories' local remotes), each with what it is, for the message.
   */
  readonly dirs: readonly FencedDirectory[];
  /** What to do instead, for the error's hint and an untrusted source's. */
  readonly hint: string;
}

export interface FencedDirectory {
  readonly dir: string;
  /** What it is: `the fleet's workdir /x/.pantograph-fleet, where the other repositories are cloned`. */
  readonly what: string;
}

/** The fenced directory (or the project itself) that `dir` lies in, through symlinks too; undefined if none. */
export function fencedBy(dir: string, root: string, fence: TemplateFence): FencedDirectory | undefined {
  const targets = withRealPath(dir);
  const inside = (walls: readonly string[]) => targets.some((t) => walls.some((w) => insideProject(w, t)));
  if (inside(withRealPath(root))) return { dir: root, what: 'the repository itself' };
  return fence.dirs.find((fenced) => inside(wallsOf(fenced)));
}

/**
 * A fenced directory with its real path, resolved once per fence: a fleet checks every repository's local
 * sources against every other repository's directory, which would otherwise be a realpath each time.
 */
function wallsOf(fenced: FencedDirectory): readonly string[] {
  const known = resolvedWalls.get(fenced);
  if (known !== undefined) return known;
  let real: string;
  try {
    real = realpathSync(fenced.dir);
  } catch {
    // Not there yet (a clone still to be made): asked again next time, when it may be a symlink's target.
    return [fenced.dir];
  }
  const walls = real === fenced.dir ? [real] : [fenced.dir, real];
  resolvedWalls.set(fenced, walls);
  return walls;
}
const resolvedWalls = new WeakMap<FencedDirectory, readonly string[]>();

/** The directory a source of `.sync.yml` reads from this machine; undefined for a remote git URL. */
export function localSourceDirectory(spec: SourceSpec, root: string): string | undefined {
  if (spec.type === 'filesystem') return filesystemPath(spec.location, root);
  if (spec.type !== 'git') return undefined;
  if (/^file:\/\//i.test(spec.location)) return fileUrlPath(spec.location);
  // A remote comes back as written (`https://...`, `git@host:...`, `host:path`); a path, absolute.
  const url = gitUrl(spec.location, root);
  return isAbsolute(url) ? url : undefined;
}

/**
 * The project's own template sources, as a fenced run takes them: one in the fence refused (an error at
 * its place in `.sync.yml`), and no git source trusted (the caller resolves them without `trust` too).
 */
export function fenceSources(specs: readonly SourceSpec[], root: string, fence: TemplateFence): SourceSpec[] {
  return specs.map((spec) => {
    const local = localSourceDirectory(spec, root);
    const fenced = local !== undefined ? fencedBy(local, root, fence) : undefined;
    if (fenced !== undefined) {
      throw fencedError(`template source '${spec.location}'`, local!, fenced, spec.position, fence);
    }
    // What trusts a git source (`trusted: true`, --trust) is not the project's to give here.
    return spec.type === 'git' ? { ...spec, trusted: false, trustRefused: fence.hint } : spec;
  });
}

/** The error for a directory in the fence: what it is, why it is refused, and what to do. */
export function fencedError(
  what: string,
  dir: string,
  fenced: FencedDirectory,
  position: Position | undefined,
  fence: TemplateFence,
): EngineError {
  return new EngineError(
    'TEMPLATE_FENCED',
    `${what} is the directory ${dir}, inside ${fenced.what}: a repository's own files may not make the fleet run templates from there (their hooks and Ruby would run with your rights)`,
    { ...(position ? { position } : {}), hint: fence.hint },
  );
}

function withRealPath(dir: string): string[] {
  try {
    const real = realpathSync(dir);
    return real === dir ? [dir] : [dir, real];
  } catch {
    return [dir];
  }
}

function fileUrlPath(url: string): string {
  try {
    return fileURLToPath(url);
  } catch {
    return decodeURIComponent(url.slice('file://'.length));
  }
}
