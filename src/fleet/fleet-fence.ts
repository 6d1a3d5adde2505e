/**
 * What a fleet's repositories may not name as their templates (src/engine/template-fence.ts): each is
 * someone else's input, so the workdir where they are cloned side by side, and the local remotes and
 * directories the fleet file lists, are the fleet's input, never templates a repository picks for itself.
 * Templates are named in the fleet file (`template_url:`, `template_sources:`), which is what it grants.
 */
import { basename, isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FencedDirectory, TemplateFence } from '../engine/template-fence.js';
import type { Fleet } from './fleet-file.js';

/** The fence of a fleet run, made once per fleet (each repository's run asks for it). */
export function fleetFence(fleet: Fleet): TemplateFence {
  let fence = fences.get(fleet);
  if (fence === undefined) {
    fence = makeFleetFence(fleet);
    fences.set(fleet, fence);
  }
  return fence;
}
const fences = new WeakMap<Fleet, TemplateFence>();

function makeFleetFence(fleet: Fleet): TemplateFence {
  const dirs: FencedDirectory[] = [
    {
      dir: fleet.workdir,
      what: `the fleet's workdir ${fleet.workdir}, where the other repositories are cloned`,
    },
  ];
  for (const repo of fleet.repositories) {
    const dir = repo.path ?? localRemote(repo.url);
    if (dir !== undefined) dirs.push({ dir, what: `the fleet's repository '${repo.name}' (${dir})` });
  }
  return {
    dirs,
    hint: `name the templates in the fleet file ${basename(fleet.file)} instead (\`template_url:\` for a V1 repository or modulesync configuration, \`template_sources:\` for V2 ones, with \`trusted: true\` where their JavaScript hooks should run, or a git URL run with --trust): in a fleet, trust comes from the fleet file, never from a repository`,
  };
}

/** The directory a `url:` on this machine names (an absolute path or a `file://` URL; the loader made paths absolute). */
function localRemote(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  if (/^file:\/\//i.test(url)) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined; // the loader refuses such a URL
    }
  }
  return isAbsolute(url) ? url : undefined;
}
