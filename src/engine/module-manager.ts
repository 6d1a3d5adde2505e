/**
 * Which tool manages a module's files, by the marks each leaves: PDK writes `pdk-version` and
 * `template-url` into metadata.json; modulesync writes `.msync.yml`. A `.sync.yml` is keyed by file for
 * both, but configures different templates (pdk-templates', or modulesync_config's).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from './errors.js';
import type { Position } from './model.js';

/** metadata.json has PDK's `pdk-version` or `template-url`. */
export function managedByPdk(dir: string): boolean {
  try {
    // A byte order mark is the loader's error (PROJECT_METADATA); the keys still say who manages it.
    const text = readFileSync(join(dir, 'metadata.json'), 'utf8').replace(/^\uFEFF/, '');
    const metadata = JSON.parse(text) as unknown;
    return (
      typeof metadata === 'object' &&
      metadata !== null &&
      ('pdk-version' in metadata || 'template-url' in metadata)
    );
  } catch {
    return false;
  }
}

/** The `.msync.yml` of a module modulesync manages and PDK does not; undefined for any other. */
export function modulesyncMark(dir: string): string | undefined {
  const file = join(dir, '.msync.yml');
  return existsSync(file) && !managedByPdk(dir) ? file : undefined;
}

/** In a fleet: the fleet file names the configuration, or the module moves to V2 templates. */
const MODULESYNC_FILE_HINT =
  "set `template_url:` in the fleet file to the modulesync configuration (its directory or git URL#ref) to render its templates as `msync update` does (`fleet import-modulesync` writes it); or write `pdk_template: {version: 2, templates: [...]}` into the module's .sync.yml and move each file's settings under the template that writes that file (README: 'Coming from modulesync')";

/** What to do with a modulesync module's `.sync.yml`, said by every command that meets one. */
export const MODULESYNC_HINT =
  "to render it as `msync update` does, name the modulesync configuration (the directory or git URL with config_defaults.yml and moduleroot/): --template-url DIR|URL[#REF] (once applied with it, later runs find it in .pantograph.lock); for all the modules of the configuration at once, run `pantograph fleet import-modulesync` in its checkout (README: 'Coming from modulesync'); to move to Pantograph's templates, write `pdk_template: {version: 2, templates: [...]}` into .sync.yml and move each file's settings under the template that writes that file";

/**
 * The error for a module modulesync manages whose `.sync.yml` is no V2 file, when no modulesync
 * configuration is named (`--template-url`, or the fleet's `template_url`) to render it: at
 * `syncPosition` (the top of its `.sync.yml`, which has no `pdk_template`), else (no `.sync.yml`) at
 * `.msync.yml`.
 */
export function modulesyncModuleError(
  msync: string,
  syncPosition: Position | undefined,
  inFleet = false,
): EngineError {
  const what = syncPosition
    ? ".sync.yml has no `pdk_template` key: it configures modulesync's templates, and no modulesync configuration is named to render them"
    : 'no .sync.yml in this module, and no modulesync configuration is named to render its templates';
  return new EngineError(
    'SYNC_MODULESYNC',
    `${what} (this module is managed by modulesync: .msync.yml; metadata.json has no pdk-version or template-url, so it is not PDK's)`,
    {
      position: syncPosition ?? { file: msync, line: 1, column: 1 },
      // A fleet already runs Pantograph's templates: what is left is the module's own file.
      hint: inFleet ? MODULESYNC_FILE_HINT : MODULESYNC_HINT,
    },
  );
}
