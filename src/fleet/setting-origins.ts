/**
 * Where each setting a repository gets from the fleet file is written: under its own entry's `settings`,
 * else under `defaults.settings` (the entry's win, as `mergeSettings` merges them). The fleet writes these
 * settings into the repository's `.sync.yml`; a problem with one is reported here, where it is fixed.
 */
import { type DataMap, isMap } from '../engine/model.js';
import { escapePointerSegment } from '../engine/yaml-data.js';

export interface SettingOrigin {
  /** The setting's JSON pointer in `.sync.yml` (`/puppet_lint/fail_on_warnings`). */
  readonly pointer: string;
  /** Its JSON pointer in the fleet file (`/defaults/settings/puppet_lint/fail_on_warnings`). */
  readonly at: string;
  /**
   * A value set whole (a scalar, a list): everything under it is the fleet file's. A mapping is merged key
   * by key into the repository's own, so only the mapping itself is.
   */
  readonly whole: boolean;
}

export function settingOrigins(own: DataMap, defaults: DataMap, entryPointer: string): SettingOrigin[] {
  const out: SettingOrigin[] = [];
  const walk = (
    pointer: string,
    mine: DataMap | undefined,
    mineAt: string,
    inherited: DataMap | undefined,
    inheritedAt: string,
  ) => {
    const keys = new Set([...Object.keys(inherited ?? {}), ...Object.keys(mine ?? {})]);
    for (const key of keys) {
      const segment = `/${escapePointerSegment(key)}`;
      const fromEntry = mine !== undefined && Object.hasOwn(mine, key);
      const value = fromEntry ? mine[key] : inherited?.[key];
      const at = fromEntry ? `${mineAt}${segment}` : `${inheritedAt}${segment}`;
      const whole = !isMap(value);
      out.push({ pointer: `${pointer}${segment}`, at, whole });
      if (whole) continue;
      const ownMap = fromEntry ? (value as DataMap) : undefined;
      const inheritedValue = inherited?.[key];
      walk(
        `${pointer}${segment}`,
        ownMap,
        `${mineAt}${segment}`,
        isMap(inheritedValue) ? inheritedValue : undefined,
        `${inheritedAt}${segment}`,
      );
    }
  };
  walk('', own, `${entryPointer}/settings`, defaults, '/defaults/settings');
  return out;
}
