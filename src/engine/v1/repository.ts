/**
 * What a template repository run with Ruby is, by its layout: PDK's V1 repository (renderer/v1.rb
 * `compatible?`: `moduleroot/` and `moduleroot_init/`), or a modulesync configuration (`moduleroot/` and
 * `config_defaults.yml`, no `moduleroot_init/`: modulesync has no init files). `moduleroot/` alone is
 * neither: more likely a V1 repository missing a directory than a configuration without defaults.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** How a repository's ERB is run: as PDK runs pdk-templates, or as `msync update` runs its configuration. */
export type RubyRepositoryKind = 'pdk' | 'modulesync';

/** Both `moduleroot/` and `moduleroot_init/` are directories. */
export function isV1Repository(dir: string): boolean {
  return isDirectory(join(dir, 'moduleroot')) && isDirectory(join(dir, 'moduleroot_init'));
}

/** The kind of repository `dir` is; undefined when it is neither. */
export function rubyRepositoryKind(dir: string): RubyRepositoryKind | undefined {
  if (!isDirectory(join(dir, 'moduleroot'))) return undefined;
  if (isDirectory(join(dir, 'moduleroot_init'))) return 'pdk';
  return existsSync(join(dir, 'config_defaults.yml')) ? 'modulesync' : undefined;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** The name the V1 repository's files are planned and locked under (it has no templates of its own). */
export const V1_TEMPLATE_NAME = 'v1';
/** The name a modulesync configuration's files are planned and locked under. */
export const MODULESYNC_TEMPLATE_NAME = 'modulesync';
