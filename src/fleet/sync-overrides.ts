/**
 * What the fleet writes into a repository's `.sync.yml`: its `template_sources` (the repository entry's
 * own, else the fleet file's, if any) and the repository's settings. Two texts: the one committed names the sources without credentials;
 * the one planned keeps them, as git may need them to fetch. The sources and those settings are the fleet
 * file's, so a problem with one is reported at its place in `fleet.yml` (`origins`), where it is fixed.
 */
import type { Data, DataMap } from '../engine/model.js';
import { applyOverrides, type OverrideResult } from '../engine/sync-edit.js';
import type { SyncOrigin } from '../engine/sync-origins.js';
import { withoutCredentials } from '../shared/url-credentials.js';
import type { Fleet, FleetRepository } from './fleet-file.js';

export interface FleetOverrides {
  /** The `.sync.yml` the repository gets (committed by apply); `changed` says what the fleet set. */
  readonly committed: OverrideResult;
  /** The `.sync.yml` planned: `committed`, with the sources' credentials. */
  readonly planned: OverrideResult;
  /** The values of `.sync.yml` that `fleet.yml` decides, for ProjectOptions.syncOrigins. */
  readonly origins: readonly SyncOrigin[];
}

export function fleetOverrides(fleet: Fleet, repo: FleetRepository, original: string): FleetOverrides {
  const sources = templateSourcesOf(fleet, repo);
  const bare = sources?.map(withoutSourceCredentials);
  const committed = applyOverrides(original, {
    ...(bare ? { templateSources: bare } : {}),
    settings: repo.settings,
  });
  const planned =
    sources && JSON.stringify(bare) !== JSON.stringify(sources)
      ? applyOverrides(original, { templateSources: sources, settings: repo.settings })
      : committed;
  const origins: SyncOrigin[] = [
    ...(sources
      ? [{ pointer: '/pdk_template/template_sources', at: templateSourcesAt(fleet, repo), whole: true }]
      : []),
    ...repo.settingOrigins,
  ].map((o) => ({ ...o, positions: fleet.positions }));
  return { committed, planned, origins };
}

/** A fleet template source as a repository's `.sync.yml` gets it: its location without credentials. */
function withoutSourceCredentials(source: Data): Data {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return source;
  const location = (source as DataMap).location;
  return typeof location === 'string' ? { ...source, location: withoutCredentials(location) } : source;
}

/** The template sources a repository gets: its own (`template_sources:` on its entry), else the fleet's. */
export function templateSourcesOf(fleet: Fleet, repo: FleetRepository): readonly Data[] | undefined {
  return repo.templateSources ?? fleet.templateSources;
}

/** Where in fleet.yml the repository's template sources are written (its entry's, else the top level's). */
function templateSourcesAt(fleet: Fleet, repo: FleetRepository): string {
  if (repo.templateSources === undefined) return '/template_sources';
  const index = fleet.repositories.indexOf(repo);
  return `/repositories/${index}/template_sources`;
}
