/**
 * Where `update` moves git sources: each one of a plan made with `followRefs`, with the commit the lock
 * had for the same location. Shared by `pantograph update` and `pantograph fleet update`.
 */
import { sameLocation } from '../shared/url-credentials.js';
import type { LockFile } from '../sync/index.js';
import type { PlannedSource } from './render-plan.js';

export interface SourceMove {
  readonly location: string;
  readonly ref?: string;
  /** The commit the lock recorded, when the source was locked. */
  readonly from?: string;
  readonly to: string;
}

/** Each git source of the plan with the commit the lock had for the same location (an older lock's may hold credentials). */
export function sourceMoves(lock: LockFile | undefined, sources: readonly PlannedSource[]): SourceMove[] {
  return sources
    .filter((s) => s.type === 'git' && s.commit !== undefined)
    .map((s) => {
      const was = lock?.sources.find((l) => l.type === 'git' && sameLocation(l.location, s.location))?.commit;
      return {
        location: s.location,
        ...(s.ref === undefined ? {} : { ref: s.ref }),
        ...(was === undefined ? {} : { from: was }),
        to: s.commit!,
      };
    });
}

/** `https://git.example.com/t.git#main: 0b5d1c2e3f4a -> 9f1e2d3c4b5a` (or `at`, `already at`). */
export function moveLine(m: SourceMove): string {
  const label = `${m.location}${m.ref === undefined ? '' : `#${m.ref}`}`;
  if (m.from === undefined) return `${label}: at ${m.to.slice(0, 12)}`;
  if (m.from === m.to) return `${label}: already at ${m.to.slice(0, 12)}`;
  return `${label}: ${m.from.slice(0, 12)} -> ${m.to.slice(0, 12)}`;
}
