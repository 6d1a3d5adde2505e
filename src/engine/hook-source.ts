/**
 * Places in a hook's source. A value a hook returns carries no positions, but what it sets is almost
 * always written literally there (`'port' =>`, `port:`): that is where an error about it points.
 */
import { readFileSync } from 'node:fs';
import { lineColumn } from '../shared/position.js';
import type { Position } from './model.js';

/**
 * Where the hook's source writes `key`: as a hash or object key (`'key' =>`, `key:`) or as what a
 * JavaScript hook assigns (`settings.key =`, `settings['key'] =`), whichever comes first; else undefined.
 */
export function hookKeyPosition(path: string, key: string): Position | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const asKey = `(?<![\\w$])(['"]?)${escaped}\\1\\s*(?:=>|:)`;
  // An assignment, not a comparison (`==`) nor an arrow (`=>`).
  const assigned = `(?<=\\.)${escaped}(?=\\s*=(?![=>]))|(?<=\\[\\s*['"])${escaped}(?=['"]\\s*\\]\\s*=(?![=>]))`;
  return hookSourcePosition(path, new RegExp(`${asKey}|${assigned}`));
}

/** The position of the first match of `pattern` in the hook's source, if it matches. */
export function hookSourcePosition(path: string, pattern: RegExp): Position | undefined {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const match = pattern.exec(source);
  if (!match) return undefined;
  return { file: path, ...lineColumn(source, match.index) };
}
