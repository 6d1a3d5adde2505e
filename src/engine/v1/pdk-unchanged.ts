/**
 * What `pdk update` counts as no change. PDK writes a file only when its diff is not empty, and it diffs
 * `content.split("\n").map(&:chomp)`: Ruby's `split` drops trailing empty strings and `chomp` a final
 * `\r`, so a file that differs from the template's output only by CRLF line endings or by blank lines at
 * its end is left as it is, forever (until another line changes and PDK writes the whole output).
 */
import { sha256 } from '../../sync/hash.js';

/** The lines PDK's `unified_diff` compares. */
export function pdkDiffLines(text: string): string[] {
  const lines = text.split('\n');
  // Ruby's String#split with no limit drops trailing empty fields (before chomp).
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** True when `pdk update` would find no difference between the file and the template's output. */
export function pdkSeesNoChange(existing: Uint8Array, rendered: Uint8Array): boolean {
  // latin1 maps each byte to one character: lines compare byte for byte, as Ruby compares strings (two
  // different invalid UTF-8 sequences must not both become U+FFFD and pass for equal).
  const a = pdkDiffLines(Buffer.from(existing).toString('latin1'));
  const b = pdkDiffLines(Buffer.from(rendered).toString('latin1'));
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/**
 * The bytes this run recorded before for a file, when today's output is the same to PDK: a file adopted as
 * the project's bytes (CRLF, a blank last line cut) and edited by hand since is then still "template
 * output unchanged", and the edit is kept, rather than a conflict with the same lines in another style.
 * Tries the output with LF or CRLF endings and zero to three final line ends against the locked hash.
 */
export function lockedStyleOf(rendered: Uint8Array, lockedHash: string): Uint8Array | undefined {
  if (sha256(rendered) === lockedHash) return undefined;
  const body = Buffer.from(rendered)
    .toString('latin1')
    .replace(/(?:\r?\n)+$/, '');
  for (const eol of ['\n', '\r\n']) {
    const lines = body.replace(/\r?\n/g, eol);
    for (let ends = 0; ends <= 3; ends++) {
      const candidate = Buffer.from(lines + eol.repeat(ends), 'latin1');
      if (sha256(candidate) === lockedHash && pdkSeesNoChange(candidate, rendered)) return candidate;
    }
  }
  return undefined;
}
