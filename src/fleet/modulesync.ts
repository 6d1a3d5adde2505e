/**
 * `fleet import-modulesync`: a modulesync configuration directory (`managed_modules.yml`, `modulesync.yml`)
 * turned into the equivalent fleet file, whose `template_url` is the configuration itself, with a note for
 * everything that cannot be carried over. The
 * files are read as data only (YAML 1.1 as Ruby reads it, no custom tags); nothing in them runs.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import { EngineError } from '../engine/errors.js';
import type { Data, DataMap, PositionLookup } from '../engine/model.js';
import { rubyRepositoryKind } from '../engine/v1/repository.js';
import { parseYamlData } from '../engine/yaml-data.js';
import { holdsSecret } from '../shared/url-credentials.js';
import { parseFleet } from './fleet-file.js';
import { MiB, readInputText } from './input-text.js';
import { CARRIED_OPTIONS, readManagedModules } from './modulesync-modules.js';

export interface ModulesyncImport {
  /** The fleet file's text. */
  readonly text: string;
  readonly repositories: number;
  /** What was not carried over, and why; one line each. */
  readonly notes: readonly string[];
}

/** Far above any real one: voxpupuli's managed_modules.yml, some 150 modules, is a few KiB. */
const MAX_MODULESYNC_FILE_BYTES = MiB;

/** Keys of modulesync.yml and where they go; `undefined`: noted, not carried. */
const CARRIED = new Set([
  'namespace',
  'git_base',
  'branch',
  'message',
  'pr_title',
  'pr_labels',
  'pr_target_branch',
  'project_root',
]);

/**
 * `fleetDir`: where the fleet file goes (default: the configuration's directory); the fleet's
 * `template_url` names the configuration relative to it.
 */
export function importModulesync(configDir: string, fleetDir = configDir): ModulesyncImport {
  const settings = readYamlMap(join(configDir, 'modulesync.yml')) ?? {};
  // msync symbolizes modulesync.yml's keys, so `:managed_modules_conf` names the list too.
  const listName = plain(settings.managed_modules_conf ?? settings[':managed_modules_conf']);
  const managedFile = join(configDir, String(listName ?? 'managed_modules.yml'));
  const managed = readYaml(managedFile);
  const notes: string[] = [];
  const get = (map: DataMap, key: string) => plain(map[key] ?? map[`:${key}`]);
  const namespace = String(get(settings, 'namespace') ?? 'puppetlabs');
  const gitBase = String(get(settings, 'git_base') ?? 'git@github.com:');
  for (const key of Object.keys(settings)) {
    const bare = key.replace(/^:/, '');
    if (!CARRIED.has(bare) && bare !== 'managed_modules_conf') {
      notes.push(`modulesync.yml \`${bare}\` is not carried over: ${reasonFor(bare)}`);
    }
  }
  const { modules, notes: read } = readManagedModules(managed.data, managed.positions, managedFile);
  notes.push(...read);
  if (modules.length === 0) {
    throw new EngineError('FLEET_MODULESYNC', `${managedFile} lists no modules`, {
      hint: 'managed_modules.yml is a list of module repository names',
    });
  }
  const repositories = modules.map(({ name, options, fleetName }) => {
    const ns = String(get(options, 'namespace') ?? namespace);
    const remote = get(options, 'remote');
    for (const key of Object.keys(options)) {
      const bare = key.replace(/^:/, '');
      if (!CARRIED_OPTIONS.includes(bare)) {
        notes.push(
          `managed_modules.yml \`${name}\` option \`${bare}\` is not carried over: ${reasonFor(bare)}`,
        );
      }
    }
    // `namespace/module` names its own namespace, which wins over the option and the default (modulesync).
    const path = name.includes('/') ? name : `${ns}/${name}`;
    return {
      name: fleetName,
      url: typeof remote === 'string' ? remote : remoteOf(gitBase, path),
      forge_project: path,
    };
  });
  const branch = get(settings, 'branch');
  const base = get(settings, 'pr_target_branch');
  const message = get(settings, 'message');
  const title = get(settings, 'pr_title');
  // modulesync reads it with Util.parse_list: a string is split on commas, a list kept.
  const rawLabels = get(settings, 'pr_labels');
  const labels =
    typeof rawLabels === 'string'
      ? rawLabels
          .split(',')
          .map((l) => l.trim())
          .filter((l) => l !== '')
      : rawLabels;
  if (
    rawLabels !== undefined &&
    rawLabels !== null &&
    typeof rawLabels !== 'string' &&
    !Array.isArray(rawLabels)
  ) {
    notes.push(
      `modulesync.yml \`pr_labels\` is ${typeof rawLabels}, not a list or a comma-separated string: not carried over`,
    );
  }
  const projectRoot = get(settings, 'project_root');
  if (typeof branch !== 'string') {
    notes.push(
      "modulesync.yml has no `branch`: modulesync would commit to each module's default branch; the fleet commits on the work branch `modulesync` (set `defaults.branch`) and proposes it with --pr",
    );
  }
  if (holdsSecret(gitBase)) {
    notes.push(
      'modulesync.yml `git_base` holds credentials: every `url:` of the fleet file repeats them (the fleet warns about each); better remove them and give git a credential helper',
    );
  }
  const forge = /gitlab/i.test(gitBase)
    ? { type: 'gitlab', api: `https://${hostOf(gitBase)}/api/v4` }
    : /github\.com/i.test(gitBase)
      ? { type: 'github' }
      : undefined;
  if (!forge)
    notes.push(`git_base ${gitBase} is neither GitHub nor GitLab: no \`forge:\` written (add one for --pr)`);
  // The configuration itself renders the modules, as `msync update` does (src/engine/v1, modulesync.rb).
  const templateUrl = isModulesyncConfiguration(configDir) ? relative(fleetDir, configDir) || '.' : undefined;
  notes.push(
    templateUrl !== undefined
      ? `template_url: ${templateUrl}: the configuration's moduleroot/ and config_defaults.yml render each module with its own .sync.yml as \`msync update\` does (ERB run by the system Ruby); a git URL#tag there instead needs --trust`
      : `${configDir} lacks config_defaults.yml and moduleroot/ (a modulesync configuration has both): no \`template_url\` written; set it to the modulesync configuration (its directory or git URL#tag) to render its ERB as \`msync update\` does, or point \`template_sources\` at a Pantograph template repository: then each module's .sync.yml (keyed by file, for modulesync's templates) needs a \`pdk_template: {version: 2}\` section, with its settings moved under the templates that write those files, before the fleet plans it (\`pantograph convert\` is for PDK modules)`,
  );
  const fleet = {
    version: 1,
    ...(templateUrl !== undefined ? { template_url: templateUrl } : {}),
    workdir: typeof projectRoot === 'string' ? projectRoot : 'modules',
    defaults: {
      branch: typeof branch === 'string' ? branch : 'modulesync',
      ...(typeof base === 'string' ? { base } : {}),
    },
    ...(typeof message === 'string' ? { commit: { message } } : {}),
    ...(forge ? { forge } : {}),
    ...(typeof title === 'string' || Array.isArray(labels)
      ? {
          pull_request: {
            ...(typeof title === 'string' ? { title } : {}),
            ...(Array.isArray(labels) ? { labels: labels.map(String) } : {}),
          },
        }
      : {}),
    repositories,
  };
  const header = `# Imported from the modulesync configuration in ${configDir} by \`pantograph fleet import-modulesync\`.\n`;
  const text = `${header}${stringify(fleet, { lineWidth: 0 })}`;
  // What is written must be a fleet file the fleet takes: checked as the next command would read it.
  try {
    parseFleet(text, join(fleetDir, 'fleet.yml'));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new EngineError(
      'FLEET_MODULESYNC',
      `the fleet file made from ${configDir} would be refused: ${why}`,
      {
        hint: 'fix the module or setting it names in managed_modules.yml or modulesync.yml; nothing was written',
      },
    );
  }
  return { text, repositories: repositories.length, notes };
}

/**
 * A module's remote as modulesync makes it (source_code.rb `_repository_remote`): git_base, the path, and
 * `.git`, except under a `file://` base, where the path is the directory itself.
 */
function remoteOf(gitBase: string, path: string): string {
  return gitBase.startsWith('file://') ? `${gitBase}${path}` : `${gitBase}${path}.git`;
}

function reasonFor(key: string): string {
  switch (key) {
    case 'branch':
      // source_code.rb reads only `namespace` and `remote` of a module's options.
      return "modulesync reads `branch` only from modulesync.yml (or --branch), so this module was committed to that branch like every other; give this repository's fleet entry a `branch:` if it needs its own";
    case 'remote_branch':
      return 'the fleet pushes the work branch under its own name';
    case 'pre_commit_script':
      return "it names a script in the modulesync gem's own contrib/ directory, which msync runs before each commit: Pantograph has no such script and runs none before its commits";
    case 'bump':
    case 'tag':
    case 'tag_pattern':
    case 'changelog':
      return 'releasing is not part of a template run';
    default:
      return 'Pantograph has no equivalent';
  }
}

/** What `--template-url` takes as a modulesync configuration (src/engine/v1/repository.ts). */
function isModulesyncConfiguration(dir: string): boolean {
  return rubyRepositoryKind(dir) === 'modulesync';
}

function hostOf(gitBase: string): string {
  return (
    /^[a-z]+:\/\/(?:[^@/]+@)?([^/:]+)/i.exec(gitBase)?.[1] ??
    /^(?:[^@]+@)?([^:]+):/.exec(gitBase)?.[1] ??
    'gitlab.com'
  );
}

function plain(value: Data | undefined): Data | undefined {
  return typeof value === 'bigint' ? Number(value) : value;
}

function readYaml(file: string): { data: Data; positions: PositionLookup } {
  const text = readInputText(file, {
    code: 'FLEET_MODULESYNC',
    maxBytes: MAX_MODULESYNC_FILE_BYTES,
    what: 'modulesync configuration file',
    afterFix: 'run `fleet import-modulesync` again',
    missing: () =>
      new EngineError('FLEET_MODULESYNC', `no ${file}`, {
        hint: 'give the modulesync configuration directory (it holds managed_modules.yml)',
      }),
  });
  const parsed = parseYamlData(text, file, {
    version: '1.1',
    errorCode: 'FLEET_MODULESYNC',
  });
  const error = parsed.problems.find((p) => p.severity === 'error');
  if (parsed.data === undefined || error) {
    throw new EngineError('FLEET_MODULESYNC', error?.message ?? `${file} is not valid YAML`, {
      ...(error?.line !== undefined
        ? { position: { file, line: error.line, column: error.column ?? 1 } }
        : {}),
      problems: parsed.problems,
    });
  }
  return { data: parsed.data, positions: parsed.positions };
}

/** modulesync.yml: optional, a mapping. */
function readYamlMap(file: string): DataMap | undefined {
  if (!existsSync(file)) return undefined;
  const { data } = readYaml(file);
  if (data === undefined || data === null) return undefined;
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new EngineError('FLEET_MODULESYNC', `${file} must be a mapping of settings`, {
      position: { file, line: 1, column: 1 },
    });
  }
  return data as DataMap;
}
