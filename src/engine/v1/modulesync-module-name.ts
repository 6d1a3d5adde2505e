/**
 * Which module of a modulesync configuration a module directory is, when nothing says (outside a fleet,
 * which gives each repository's name). msync names a module as managed_modules.yml does (`puppet-ntp`, or
 * `namespace/puppet-ntp`): its templates see that name (`@metadata[:module_name]`, `:puppet_module`), and
 * its namespace follows from the entry. A checkout's directory may be named anything (`~/src/ntp`, a CI
 * workspace), so the entry is found by what the checkout says of itself: its directory's name, then
 * metadata.json's `name`, then the last part of its git remote `origin`, the first one managed_modules.yml
 * lists. None listed: the directory's name, as before (msync would not manage the module at all).
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseYamlData } from '../yaml-data.js';

export interface ModulesyncModuleName {
  /** As managed_modules.yml gives it, or the directory's name. */
  readonly name: string;
  /** How it was found, when not by the directory's name: for a note. */
  readonly from?: 'metadata.json' | 'git remote';
}

export function modulesyncModuleName(
  configDir: string,
  moduleDir: string,
  metadataName: unknown,
): ModulesyncModuleName {
  const own = basename(moduleDir);
  const listed = managedNames(configDir);
  const find = (candidate: string | undefined) =>
    candidate === undefined ? undefined : listed.find((given) => given.split('/').pop() === candidate);
  const byDir = find(own);
  if (byDir !== undefined) return { name: byDir };
  const byMetadata = find(typeof metadataName === 'string' ? metadataName : undefined);
  if (byMetadata !== undefined) return { name: byMetadata, from: 'metadata.json' };
  const byRemote = find(originName(moduleDir));
  if (byRemote !== undefined) return { name: byRemote, from: 'git remote' };
  return { name: own };
}

/** The names managed_modules.yml lists (a list of names, a mapping of names, or list items `name: {...}`). */
function managedNames(configDir: string): string[] {
  const file = join(configDir, managedModulesFile(configDir));
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const { data } = parseYamlData(text, file, {
    version: '1.1',
    errorCode: 'V1_CONFIG_YAML',
    replaceTag: true,
  });
  if (Array.isArray(data)) {
    return data.flatMap((item) =>
      typeof item === 'string'
        ? [item]
        : item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).length === 1
          ? Object.keys(item)
          : [],
    );
  }
  return data !== null && typeof data === 'object' ? Object.keys(data) : [];
}

/** modulesync.yml's `managed_modules_conf`, else msync's default. */
function managedModulesFile(configDir: string): string {
  try {
    // A byte order mark (which msync's YAML reader skips) would hide a first-line key from `^`.
    const text = readFileSync(join(configDir, 'modulesync.yml'), 'utf8').replace(/^\uFEFF/, '');
    const match = /^managed_modules_conf:\s*['"]?([^'"\s#]+)/m.exec(text);
    if (match) return match[1]!;
  } catch {
    // none
  }
  return 'managed_modules.yml';
}

/** `puppet-ntp` of the checkout's `origin` (`git@host:acme/puppet-ntp.git`), read from `.git/config`. */
function originName(moduleDir: string): string | undefined {
  let config: string;
  try {
    config = readFileSync(join(moduleDir, '.git', 'config'), 'utf8');
  } catch {
    return undefined; // no clone, or a worktree (.git is a file)
  }
  const section = /^\[remote "origin"\]([^[]*)/m.exec(config)?.[1];
  const url = section !== undefined ? /^\s*url\s*=\s*(.+?)\s*$/m.exec(section)?.[1] : undefined;
  const last = url
    ?.replace(/\/+$/, '')
    .split(/[/:]/)
    .pop()
    ?.replace(/\.git$/, '');
  return last === undefined || last === '' ? undefined : last;
}
