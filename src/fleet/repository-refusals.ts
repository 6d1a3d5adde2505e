/**
 * Repositories a fleet's `template_url` and `template_sources` would render wrongly, refused with what to
 * do, before (or, for a PDK module, right after) planning and before anything is written: a modulesync
 * module without the fleet's `template_url`, a repository rendered by the `template_url` that names its own
 * `template_sources`, a PDK module given a modulesync configuration as its templates.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { modulesyncMark, modulesyncModuleError } from '../engine/module-manager.js';
import type { RenderPlan } from '../engine/render-plan.js';
import { MODULESYNC_TEMPLATE_NAME } from '../engine/v1/repository.js';
import { templateUrlPosition } from '../engine/v1/template-url-position.js';
import { parseYamlData } from '../engine/yaml-data.js';
import { isPlainObject } from '../shared/plain-object.js';
import { maskCredentials } from '../shared/url-credentials.js';
import type { Fleet, FleetRepository } from './fleet-file.js';

/**
 * A modulesync module's `.sync.yml` (keyed by file, no `pdk_template`) configures modulesync's templates:
 * without the fleet's `template_url`, said as such, rather than planned with the fleet's sources (which
 * would find no `pdk_template.version`).
 */
export function refuseModulesyncFile(dir: string, text: string, file: string): void {
  const msync = modulesyncMark(dir);
  if (msync === undefined) return;
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
  if (!isPlainObject(parsed.data) || Object.hasOwn(parsed.data, 'pdk_template')) return;
  throw modulesyncModuleError(msync, parsed.positions.positionOf(''), true);
}

/**
 * A repository's own `template_sources` are V2's, written into its `.sync.yml`; one rendered by the fleet's
 * `template_url` (no `pdk_template`) would silently not take them, so it fails at them.
 */
export function refuseOwnSourcesForTemplateUrl(fleet: Fleet, repo: FleetRepository): void {
  if (repo.templateSources === undefined) return;
  const index = fleet.repositories.indexOf(repo);
  throw new EngineError(
    'FLEET_INVALID',
    `'${repo.name}' has no \`pdk_template\` in its .sync.yml: it is rendered with the fleet's template_url, which its own \`template_sources\` (V2 templates) cannot change`,
    {
      position: fleet.positions.positionOf(`/repositories/${index}/template_sources`),
      hint: 'remove `template_sources` from its entry, or move the repository to V2 templates (`pdk_template: {version: 2, ...}` in its .sync.yml) for them to apply',
    },
  );
}

/**
 * A PDK module (metadata.json names its V1 templates, no `.msync.yml`) in a fleet whose `template_url` is a
 * modulesync configuration would be rendered as msync renders its modules, and fail on PDK's `.sync.yml`
 * keys with msync's words (found driving a mixed fleet). A fleet has one `template_url`: said so, at the
 * module's `template-url`.
 */
export function refusePdkModuleByModulesync(dir: string, plan: RenderPlan, fleetFile: string): void {
  if (plan.templates[0]?.name !== MODULESYNC_TEMPLATE_NAME || modulesyncMark(dir) !== undefined) return;
  let named: unknown;
  try {
    named = (JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8')) as Record<string, unknown>)[
      'template-url'
    ];
  } catch {
    return;
  }
  if (typeof named !== 'string' || named === '') return;
  throw new EngineError(
    'FLEET_MIXED',
    `this is a PDK module (its metadata.json names the V1 templates ${maskCredentials(named)}), but the fleet's template_url is a modulesync configuration, which would render it as msync renders its modules`,
    {
      position: templateUrlPosition(dir),
      hint: `a fleet has one template_url (${fleetFile}): keep the PDK modules in a fleet file of their own whose template_url names their V1 templates, or move this module to V2 (\`pantograph convert\`), or give it a .msync.yml if modulesync is to manage it`,
    },
  );
}
