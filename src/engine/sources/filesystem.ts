/**
 * A `filesystem` source: a template repository directory, absolute or relative to the project root
 * (`~/` is the home directory). Trusted unless `trusted: false` says otherwise: the user put it on their
 * own machine, but it may be a checkout of someone else's templates, which `trusted: false` treats as an
 * untrusted git source is treated (no JavaScript hooks).
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { EngineError } from '../errors.js';
import type { ResolvedSource, SourceSpec } from '../model.js';

export function filesystemPath(location: string, root: string): string {
  if (location === '~' || location.startsWith('~/')) return join(homedir(), location.slice(1));
  return isAbsolute(location) ? location : resolve(root, location);
}

export function resolveFilesystemSource(
  spec: SourceSpec,
  index: number,
  root: string,
  trustAll = false,
): ResolvedSource {
  const path = filesystemPath(spec.location, root);
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    // missing: reported below
  }
  if (!isDir) {
    throw new EngineError(
      'SOURCE_NOT_FOUND',
      `filesystem source '${spec.location}': ${path} is not a directory`,
      {
        position: spec.position,
        hint: 'a relative location is relative to the project root (the directory holding .sync.yml)',
      },
    );
  }
  return { spec, index, dir: realpathSync(path), trusted: spec.trusted !== false || trustAll };
}
