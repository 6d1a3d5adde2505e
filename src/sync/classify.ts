/**
 * Pure classification of one path (DESIGN section 8): what the plan wants, what the lock says Pantograph
 * wrote, and what is on disk decide its state. No file system access here.
 */
import type { PlannedFile } from '../engine/render-plan.js';
import type { LockedFile } from './lock.js';
import { type DiskState, sameExec } from './paths.js';

export type FileState =
  | 'create'
  | 'changed'
  | 'stable'
  | 'edited'
  | 'conflict'
  | 'adopt'
  | 'delete'
  | 'purge'
  | 'unmanaged'
  | 'init';

/** States that count as drift for `status --check`. */
export const DRIFT: ReadonlySet<FileState> = new Set([
  'create',
  'changed',
  'edited',
  'conflict',
  'adopt',
  'delete',
  'purge',
]);

export interface ClassifyInput {
  readonly planned: { readonly file: PlannedFile; readonly hash: string } | undefined;
  readonly locked: LockedFile | undefined;
  readonly disk: DiskState;
  /** The project is new (no lock): `init` files are written. */
  readonly isNew: boolean;
  readonly purge: boolean;
  /** The path matches `unmanaged`. */
  readonly unmanaged: boolean;
  /** A template produces the path though the plan did not render it (`RenderPlan.unmanagedOutputs`). */
  readonly producedUnrendered?: boolean;
  /** The path matches `delete`. */
  readonly deleted: boolean;
  /** A `post` command matches the path. */
  readonly hasPost: boolean;
}

export interface Classification {
  /** `absent`: nothing there and nothing to do (not reported; dropped from the lock). */
  readonly state: FileState | 'absent';
  readonly reason?: string;
  /** `changed` only in mode: a chmod suffices. */
  readonly modeOnly?: boolean;
}

const absent: Classification = { state: 'absent' };

/** The reason of a path listed in `unmanaged` (dropped from the lock, unlike a no-longer-produced file). */
export const LISTED_UNMANAGED = 'listed in unmanaged';
/** The reason of a file no template produces that `resolve` made the user's (dropped from the lock too). */
export const RELEASED = 'yours since `resolve`, and no template produces it: no longer managed';

export function classify(input: ClassifyInput): Classification {
  const { planned, locked, disk } = input;
  if (input.unmanaged) {
    const known = planned !== undefined || locked !== undefined || input.producedUnrendered === true;
    return known ? { state: 'unmanaged', reason: LISTED_UNMANAGED } : absent;
  }
  if (input.deleted) {
    return disk.kind === 'missing' ? absent : { state: 'delete', reason: 'listed in delete' };
  }
  if (locked?.kind === 'init' && (!planned || planned.file.kind === 'init')) {
    return { state: 'init', reason: 'written once for the new project; never updated' };
  }
  if (planned?.file.kind === 'init') {
    if (!input.isNew || planned.file.empty) return absent;
    return disk.kind === 'missing'
      ? { state: 'create', reason: 'init file for the new project' }
      : { state: 'init', reason: 'init file already present: left as it is' };
  }
  if (!planned || planned.file.empty) return noOutput(input, planned !== undefined);
  if (disk.kind === 'missing') {
    return locked ? { state: 'create', reason: 'missing on disk: created again' } : { state: 'create' };
  }
  const sameContent = disk.hash === planned.hash;
  const sameMode = sameExec(disk.mode, planned.file.mode);
  const modeChange: Classification = { state: 'changed', reason: 'mode changed', modeOnly: true };
  if (!locked || locked.kind === 'init') {
    if (!sameContent) return { state: 'adopt', reason: 'exists, never written by Pantograph' };
    if (input.hasPost) return { state: 'changed', reason: 'post commands have not run on it' };
    return sameMode ? { state: 'stable', reason: 'identical: adopted' } : modeChange;
  }
  const handEdited = disk.hash !== locked.disk;
  const templateChanged = planned.hash !== locked.rendered;
  if (!handEdited) {
    if (templateChanged) {
      return locked.resolved
        ? { state: 'conflict', reason: 'holds changes accepted by resolve, and the template output changed' }
        : {
            state: 'changed',
            reason:
              locked.rendered === ''
                ? 'post commands failed or did not finish last time'
                : 'template output changed',
          };
    }
    return sameMode ? { state: 'stable' } : modeChange;
  }
  if (sameContent) {
    if (input.hasPost) return { state: 'changed', reason: 'post commands have not run on it' };
    return sameMode ? { state: 'stable' } : modeChange;
  }
  if (!templateChanged) return { state: 'edited', reason: 'changed by hand: kept' };
  return { state: 'conflict', reason: 'changed by hand, and the template output changed too' };
}

/** A path no template produces now (`emptied`: its template's output became empty). */
function noOutput(input: ClassifyInput, emptied: boolean): Classification {
  const { locked, disk } = input;
  if (!locked || disk.kind === 'missing') return absent;
  // Content accepted by `resolve` is the user's: with no output to manage, it is theirs, never removed.
  if (locked.resolved === true && disk.hash === locked.disk) return { state: 'unmanaged', reason: RELEASED };
  const edited = disk.hash !== locked.disk;
  const choice = '`resolve` keeps it as yours, `apply --force` removes it';
  if (emptied) {
    return edited
      ? { state: 'edited', reason: `changed by hand, and the template output is now empty: kept (${choice})` }
      : { state: 'delete', reason: 'the template output is now empty' };
  }
  if (!input.purge) return { state: 'unmanaged', reason: 'no template produces it any more (purge is off)' };
  return edited
    ? { state: 'edited', reason: `changed by hand, and no template produces it any more: kept (${choice})` }
    : { state: 'purge', reason: 'no template produces it any more' };
}
