/** A rendered or copied file as the plan holds it (see render-files.ts): its mode, and its bytes. */
import type { LoadedTemplate, TemplateFile } from './model.js';
import type { PlannedFile } from './render-plan.js';

/** The mode an output is written with: executable or not, as its template file. */
export function modeOf(file: TemplateFile): number {
  return file.executable ? 0o755 : 0o644;
}

export function plannedFile(
  t: LoadedTemplate,
  file: TemplateFile,
  content: Uint8Array,
  empty: boolean,
): PlannedFile {
  return {
    path: file.output,
    mode: modeOf(file),
    template: t.name,
    source: file.source,
    kind: file.kind,
    content,
    empty,
  };
}

/**
 * Rendered text as UTF-8 bytes, carved from a shared slab: like `Buffer.from`'s pool, but a pool of 8 KiB
 * takes only two or three files of a few KiB (it reserves 3 bytes per character), and allocating pools
 * was a good part of the engine's cost per file.
 */
const SLAB_SIZE = 64 * 1024;
let slab = Buffer.allocUnsafeSlow(0);
let slabOffset = 0;

export function encodeUtf8(text: string): Uint8Array {
  const max = text.length * 3;
  if (max > SLAB_SIZE / 4) return Buffer.from(text, 'utf8');
  if (slabOffset + max > slab.length) {
    slab = Buffer.allocUnsafeSlow(SLAB_SIZE);
    slabOffset = 0;
  }
  const start = slabOffset;
  const end = start + slab.write(text, start, 'utf8');
  // Aligned to 8 bytes, as Node aligns its pool, so that typed-array views of the content stay possible.
  slabOffset = (end + 7) & ~7;
  return slab.subarray(start, end);
}
