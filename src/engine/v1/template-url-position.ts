/**
 * Where metadata.json sets `template-url`: a problem with the V1 repository it names points at that key
 * (file:line:col), as problems in `.sync.yml` point at theirs. Read again only for such a problem.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJsonData } from '../json-data.js';
import type { Position } from '../model.js';
import { jsonPointer } from '../yaml-data.js';

export function templateUrlPosition(root: string): Position {
  const file = join(root, 'metadata.json');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { file, line: 1, column: 1 };
  }
  // The key's position, or the top of the file when the text no longer parses (it did when it was read).
  return parseJsonData(text, file, 'PROJECT_METADATA').positions.keyPositionOf(jsonPointer(['template-url']));
}
