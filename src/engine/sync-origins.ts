/**
 * Values of a `.sync.yml` that another file decides: the fleet writes its `template_sources` and settings
 * into each repository's `.sync.yml`, but they are written, and fixed, in `fleet.yml`. A problem with such
 * a value is reported where it is written, not at a line of the `.sync.yml` being planned (a text not on
 * disk yet).
 */
import type { Position, PositionLookup } from './model.js';

export interface SyncOrigin {
  /** The value's JSON pointer in `.sync.yml`, e.g. `/pdk_template/template_sources`. */
  readonly pointer: string;
  /** The positions of the file it is written in. */
  readonly positions: PositionLookup;
  /** Its JSON pointer there, e.g. `/template_sources` of `fleet.yml`. */
  readonly at: string;
  /**
   * Whether everything under the value is written there too; false for a mapping merged key by key with
   * the `.sync.yml`'s own (then only the mapping itself is).
   */
  readonly whole: boolean;
}

/** `positions`, except that a value an origin covers is found there (the nearest origin, if several do). */
export function withOrigins(positions: PositionLookup, origins: readonly SyncOrigin[]): PositionLookup {
  if (origins.length === 0) return positions;
  const covers = (o: SyncOrigin, pointer: string) =>
    pointer === o.pointer || (o.whole && pointer.startsWith(`${o.pointer}/`));
  const redirect = (pointer: string): { lookup: PositionLookup; pointer: string } => {
    let origin: SyncOrigin | undefined;
    for (const o of origins) {
      if (covers(o, pointer) && (!origin || o.pointer.length > origin.pointer.length)) origin = o;
    }
    return origin
      ? { lookup: origin.positions, pointer: `${origin.at}${pointer.slice(origin.pointer.length)}` }
      : { lookup: positions, pointer };
  };
  return {
    positionOf(pointer: string): Position {
      const r = redirect(pointer);
      return r.lookup.positionOf(r.pointer);
    },
    keyPositionOf(pointer: string): Position {
      const r = redirect(pointer);
      return r.lookup.keyPositionOf(r.pointer);
    },
  };
}
