/**
 * Values of a `.sync.yml` that another file decides: the fleet writes its `template_sources` into each
 * repository's `.sync.yml`, but they are written, and fixed, in `fleet.yml`. A problem with such a value is
 * reported where it is written, not at a line of the `.sync.yml` being planned (a text not on disk yet).
 */
import type { Position, PositionLookup } from './model.js';

export interface SyncOrigin {
  /** The value's JSON pointer in `.sync.yml`, e.g. `/pdk_template/template_sources`. */
  readonly pointer: string;
  /** The positions of the file it is written in. */
  readonly positions: PositionLookup;
  /** Its JSON pointer there, e.g. `/template_sources` of `fleet.yml`. */
  readonly at: string;
}

/** `positions`, except that a value under an origin's pointer (or the origin itself) is found there. */
export function withOrigins(positions: PositionLookup, origins: readonly SyncOrigin[]): PositionLookup {
  if (origins.length === 0) return positions;
  const redirect = (pointer: string): { lookup: PositionLookup; pointer: string } => {
    const origin = origins.find((o) => pointer === o.pointer || pointer.startsWith(`${o.pointer}/`));
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
