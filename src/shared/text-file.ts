/**
 * Text files are UTF-8. Reading one with `readFileSync(file, 'utf8')` turns every invalid byte into U+FFFD,
 * which then ends up in the output unnoticed; a `.sync.yml` saved as UTF-16 reads as garbage ("must be a
 * mapping"). This decodes strictly and says what is wrong and where (issue 11, item 11).
 */

export interface EncodingProblem {
  readonly message: string;
  /** 1-based line and column (in characters) of the first bad byte. */
  readonly line: number;
  readonly column: number;
  readonly hint: string;
}

export type Decoded = { readonly text: string } | { readonly problem: EncodingProblem };

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** The bytes as UTF-8 text (a BOM kept, as `readFileSync(file, 'utf8')` keeps it), or where they are not. */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  const utf16 = utf16Kind(bytes);
  if (utf16) {
    return {
      problem: {
        message: `is encoded as UTF-16 (${utf16}), not UTF-8`,
        line: 1,
        column: 1,
        hint: 'save it as UTF-8 (most editors offer the encoding when saving)',
      },
    };
  }
  try {
    return { text: strict.decode(bytes) };
  } catch {
    const offset = firstInvalidByte(bytes);
    const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
    let line = 1;
    for (let i = 0; i < lineStart; i++) if (bytes[i] === 0x0a) line++;
    const column = lenient.decode(bytes.subarray(lineStart, offset)).length + 1;
    const byte = bytes[offset]!.toString(16).padStart(2, '0');
    return {
      problem: {
        message: `is not valid UTF-8: byte 0x${byte} at line ${line}, column ${column}`,
        line,
        column,
        hint: 'save the file as UTF-8; a binary file belongs outside .epp templates (it is copied as is)',
      },
    };
  }
}

/** `little-endian` or `big-endian` when the bytes look like UTF-16 (a BOM, or NULs beside ASCII), else undefined. */
function utf16Kind(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'little-endian';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'big-endian';
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[2] !== 0 && bytes[3] === 0)
    return 'little-endian';
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] !== 0 && bytes[2] === 0 && bytes[3] !== 0)
    return 'big-endian';
  return undefined;
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else {
      return i;
    }
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}
