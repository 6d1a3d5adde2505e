/**
 * Which module of a modulesync configuration a module directory is, when nothing says (outside a fleet,
 * which gives each repository's name). msync names a module as managed_modules.yml does (`puppet-ntp`, or
 * `namespace/puppet-ntp`): its templates see that name (`@metadata[:module_name]`, `:puppet_module`), and
 * its namespace follows from the entry. A checkout's directory may be named anything (`~/src/ntp`, a CI
 * workspace), so the entry is found by what the checkout says of itself: its directory's name, then
 * metadata.json's `name`, then the last part of its git remote `origin`, the first one managed_modules.yml
 * lists. None listed: the directory's name, as before (msync would not manage the module at all).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { isDataMap } from '../settings.js';
import { inside, realpathOrSelf } from '../template-walk.js';
import { readRepositoryYaml } from './repository-yaml.js';

export interface ModulesyncModuleName {
  /** As managed_modules.yml gives it, or the directory's name. */
  readonly name: string;
  /** How it was found, when not by the directory's name: for a note. */
  readonly from?: 'metadata.json' | 'git remote';
  /** The list file read (managed_modules.yml unless modulesync.yml names another). */
  readonly list: string;
  /** Why the list could not be read, when it could not: for a warning (msync would stop). */
  readonly unread?: string;
}

/** Far above any real one: voxpupuli's managed_modules.yml, some 150 modules, is a few KB. */
const MAX_CONFIG_BYTES = 2_000_000;

const DEFAULT_LIST = 'managed_modules.yml';

export function modulesyncModuleName(
  configDir: string,
  moduleDir: string,
  metadataName: unknown,
): ModulesyncModuleName {
  const own = basename(moduleDir);
  const listed = managedNames(configDir);
  const { list } = listed;
  const unread = 'unread' in listed ? { unread: listed.unread } : {};
  const names = 'names' in listed ? listed.names : [];
  const find = (candidate: string | undefined) =>
    candidate === undefined ? undefined : names.find((given) => given.split('/').pop() === candidate);
  const byDir = find(own);
  if (byDir !== undefined) return { name: byDir, list };
  const byMetadata = find(typeof metadataName === 'string' ? metadataName : undefined);
  if (byMetadata !== undefined) return { name: byMetadata, from: 'metadata.json', list };
  const byRemote = find(originName(moduleDir));
  if (byRemote !== undefined) return { name: byRemote, from: 'git remote', list };
  return { name: own, list, ...unread };
}

type ManagedNames = { list: string } & ({ names: string[] } | { unread: string });

/** The names the list file holds (a list of names, a mapping of names, or list items `name: {...}`). */
function managedNames(configDir: string): ManagedNames {
  const named = listFile(configDir);
  if ('unread' in named) return named;
  const { list } = named;
  const read = readRepositoryYaml(join(configDir, list), MAX_CONFIG_BYTES);
  if (read === undefined) return { list, names: [] };
  if ('unread' in read) return { list, unread: `${list} is not read: ${read.unread}` };
  const { data } = read;
  if (Array.isArray(data)) {
    const names = data.flatMap((item) =>
      typeof item === 'string'
        ? [item]
        : isDataMap(item) && Object.keys(item).length === 1
          ? Object.keys(item)
          : [],
    );
    return { list, names };
  }
  return { list, names: isDataMap(data) ? Object.keys(data) : [] };
}

/**
 * modulesync.yml's `managed_modules_conf` (msync symbolizes the keys, so `:managed_modules_conf` too), else
 * msync's default. The configuration may come from a git source: a name that leaves its directory (an
 * absolute path, `..`, a link out) is not followed.
 */
function listFile(configDir: string): { list: string } | { list: string; unread: string } {
  const read = readRepositoryYaml(join(configDir, 'modulesync.yml'), MAX_CONFIG_BYTES);
  if (read === undefined) return { list: DEFAULT_LIST };
  if ('unread' in read) return { list: DEFAULT_LIST, unread: `modulesync.yml is not read: ${read.unread}` };
  const settings = isDataMap(read.data) ? read.data : {};
  const given = settings.managed_modules_conf ?? settings[':managed_modules_conf'];
  if (given === undefined || given === null) return { list: DEFAULT_LIST };
  if (typeof given !== 'string' || given === '') {
    return { list: DEFAULT_LIST, unread: "modulesync.yml's managed_modules_conf is not a file name" };
  }
  const lexical = resolve(configDir, given);
  const leaves =
    isAbsolute(given) ||
    !inside(lexical, resolve(configDir)) ||
    (existsSync(lexical) && !inside(realpathOrSelf(lexical), realpathOrSelf(configDir)));
  if (leaves) {
    return {
      list: given,
      unread: `modulesync.yml's managed_modules_conf '${given}' leaves the configuration's directory: not read`,
    };
  }
  return { list: given };
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
