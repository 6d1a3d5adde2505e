/** Unified diffs for `--diff`, git style (`a/path`, `b/path`, `/dev/null` for a created or removed file). */
import { createTwoFilesPatch, formatPatch, type StructuredPatchHunk } from 'diff';

/**
 * The most lines removed plus added that jsdiff is asked to find a minimal diff for. Its time grows with the
 * square of that number (0.2-0.4 s at 2,000 on this project's machine; a rewritten 20,000-line file took 74 s
 * unbounded); a larger change is shown as one replaced block (see {@link replacedBlockPatch}).
 */
export const MAX_EDIT_LENGTH = 2000;

/** Lines of context around a change: jsdiff's default, so both kinds of patch look alike. */
const CONTEXT = 4;

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
  const oldText = decoder.decode(a);
  const newText = decoder.decode(b);
  return lineEndingNote(oldName, newName, oldText, newText) + textPatch(oldName, newName, oldText, newText);
}

/**
 * A line before the patch when the two sides end their lines differently: a `\r` is invisible on a
 * terminal, and a file committed with Windows line endings would show lines that look unchanged.
 */
function lineEndingNote(oldName: string, newName: string, oldText: string, newText: string): string {
  const style = (text: string) => (text.includes('\r\n') ? 'CRLF (Windows)' : 'LF');
  if (oldText === '' || newText === '' || style(oldText) === style(newText)) return '';
  return `line endings differ: ${oldName} has ${style(oldText)}, ${newName} has ${style(newText)}\n`;
}

/**
 * A unified diff of two texts, starting at its `---` line (jsdiff's `====` banner dropped: git's format has
 * none): minimal where the change is at most `maxEditLength` lines, else one replaced block.
 */
export function textPatch(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
  maxEditLength = MAX_EDIT_LENGTH,
): string {
  const minimal = beyondEditLength(oldText, newText, maxEditLength)
    ? undefined
    : createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, { maxEditLength });
  const patch = minimal ?? replacedBlockPatch(oldName, newName, oldText, newText);
  return patch.slice(patch.indexOf('--- '));
}

/**
 * Whether the change is surely longer than `maxEditLength`, seen in linear time: a line of one text that
 * the other lacks (counted with repeats) is removed or added by any diff. jsdiff would find it out only
 * after its whole budget (0.2-0.4 s at 2,000); a text shorter than the budget is never beyond it.
 */
function beyondEditLength(oldText: string, newText: string, maxEditLength: number): boolean {
  const a = linesOf(oldText);
  const b = linesOf(newText);
  if (a.length + b.length <= maxEditLength) return false;
  const unmatched = new Map<string, number>();
  for (const line of a) unmatched.set(line, (unmatched.get(line) ?? 0) + 1);
  let changes = 0;
  for (const line of b) {
    const n = unmatched.get(line) ?? 0;
    if (n > 0) unmatched.set(line, n - 1);
    else changes++;
  }
  for (const n of unmatched.values()) changes += n;
  return changes > maxEditLength;
}

/**
 * The patch of a large change, made in linear time: the lines both texts begin and end with are context,
 * everything between is removed and added as one block. For a change too large for a minimal diff this is
 * close to one anyway (most lines differ), and it is exactly jsdiff's own patch wherever the removed and the
 * added lines have none in common (tested against it).
 */
export function replacedBlockPatch(
  oldName: string,
  newName: string,
  oldText: string,
  newText: string,
): string {
  const a = linesOf(oldText);
  const b = linesOf(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const before = a.slice(Math.max(0, head - CONTEXT), head);
  const removed = a.slice(head, a.length - tail);
  const added = b.slice(head, b.length - tail);
  const after = a.slice(a.length - tail, a.length - tail + CONTEXT);
  const hunk: StructuredPatchHunk = {
    oldStart: head - before.length + 1,
    oldLines: before.length + removed.length + after.length,
    newStart: head - before.length + 1,
    newLines: before.length + added.length + after.length,
    lines: [
      ...patchLines(' ', before),
      ...patchLines('-', removed),
      ...patchLines('+', added),
      ...patchLines(' ', after),
    ],
  };
  return formatPatch({
    oldFileName: oldName,
    newFileName: newName,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [hunk],
  });
}

/** A text's lines, each with its `\n` (the last one may have none); none for ''. */
function linesOf(text: string): string[] {
  const lines = text.split('\n').map((line) => `${line}\n`);
  const last = lines.pop()!;
  if (last !== '\n') lines.push(last.slice(0, -1));
  return lines;
}

/** Lines as a hunk holds them: marked, without their `\n`, a line that had none followed by git's note. */
function patchLines(mark: ' ' | '-' | '+', lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (line.endsWith('\n')) out.push(mark + line.slice(0, -1));
    else out.push(mark + line, '\\ No newline at end of file');
  }
  return out;
}
