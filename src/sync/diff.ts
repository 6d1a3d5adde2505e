/** Unified diffs for `--diff`, git style (`a/path`, `b/path`, `/dev/null` for a created or removed file). */
import { createTwoFilesPatch } from 'diff';

function isBinary(content: Uint8Array): boolean {
  const end = Math.min(content.length, 8000);
  for (let i = 0; i < end; i++) if (content[i] === 0) return true;
  return false;
}

const decoder = new TextDecoder();

/** The diff from `before` to `after` (undefined: the file does not exist); '' when they are equal. */
export function unifiedDiff(
  path: string,
  before: Uint8Array | undefined,
  after: Uint8Array | undefined,
): string {
  const oldName = before === undefined ? '/dev/null' : `a/${path}`;
  const newName = after === undefined ? '/dev/null' : `b/${path}`;
  const a = before ?? new Uint8Array();
  const b = after ?? new Uint8Array();
  if (Buffer.from(a).equals(b) && (before === undefined) === (after === undefined)) return '';
  if (isBinary(a) || isBinary(b)) return `Binary files ${oldName} and ${newName} differ\n`;
  const patch = createTwoFilesPatch(oldName, newName, decoder.decode(a), decoder.decode(b));
  // Drop jsdiff's `====` banner: git's format starts at `---`.
  return patch.slice(patch.indexOf('--- '));
}
