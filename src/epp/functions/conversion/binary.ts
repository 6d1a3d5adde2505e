/**
 * `Binary.new` (Puppet's `new_Binary`): from a base64 text in one of its formats, a text's UTF-8 bytes, an
 * array of bytes, or the hash form of either. Its errors are Puppet's, worded as its dispatcher words them.
 */
import { EppEvalError } from '../../errors.js';
import { inferType } from '../../runtime/types.js';
import { PBinary, type Value } from '../../runtime/values.js';
import { conversionError } from './arguments.js';

const FORMATS = ['%B', '%b', '%r', '%s', '%u'];
const BASE64_FORMAT = `Base64Format = Enum['%B', '%b', '%r', '%s', '%u']`;
const BYTE = 'ByteInteger = Integer[0, 255]';
const ARGS_HASH =
  `BinaryArgsHash = Variant[StringHash = Struct[{'value' => String, 'format' => Optional[${BASE64_FORMAT}]}], ` +
  `ArrayHash = Struct[{'value' => Array[${BYTE}]}]]`;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGITS = new Map([...ALPHABET].map((c, i) => [c, i]));

export function toBinary(args: Value[]): PBinary {
  if (args.length < 1 || args.length > 2) {
    const got = args.length === 0 ? 'none' : String(args.length);
    throw new EppEvalError('EPP_ARGUMENTS', `'new_Binary' expects between 1 and 2 arguments, got ${got}`);
  }
  const [first, format] = args;
  if (typeof first === 'string' && (format === undefined || FORMATS.includes(format as string))) {
    return fromString(first, (format as string | undefined) ?? '%B');
  }
  if (args.length === 1 && isByteArray(first)) return PBinary.of(Uint8Array.from(first as number[]));
  if (args.length === 1 && first instanceof Map) {
    const value = first.get('value');
    const keysFit = [...first.keys()].every(
      (k) => k === 'value' || (k === 'format' && typeof value === 'string'),
    );
    const hashFormat = first.get('format');
    if (
      keysFit &&
      typeof value === 'string' &&
      (hashFormat === undefined || FORMATS.includes(hashFormat as string))
    ) {
      return fromString(value, (hashFormat as string | undefined) ?? '%B');
    }
    if (keysFit && isByteArray(value)) return PBinary.of(Uint8Array.from(value as number[]));
  }
  throw new EppEvalError('EPP_ARGUMENTS', mismatch(args));
}

function isByteArray(v: Value): boolean {
  return Array.isArray(v) && v.every((b) => typeof b === 'number' && b >= 0 && b <= 255);
}

function fromString(text: string, format: string): PBinary {
  switch (format) {
    case '%b':
      return PBinary.of(decodeRelaxed(text));
    case '%u':
      return PBinary.of(decodeStrict(urlsafeToStrict(text)));
    case '%B':
      return PBinary.of(decodeStrict(text));
    default:
      // `%s` and `%r`: the text's own bytes (a Puppet string is UTF-8).
      return PBinary.of(new TextEncoder().encode(text));
  }
}

/** Ruby's `urlsafe_decode64`: padding added when missing, then `-_` read as `+/`. */
function urlsafeToStrict(text: string): string {
  let padded = text;
  if (!text.endsWith('=') && text.length % 4 !== 0) padded = text.padEnd((text.length + 3) & ~3, '=');
  return padded.replaceAll('-', '+').replaceAll('_', '/');
}

/** Ruby's `strict_decode64`: whole groups of the alphabet, canonical padding, or "invalid base64". */
function decodeStrict(text: string): Uint8Array {
  const invalid = () => conversionError('invalid base64');
  if (text.length % 4 !== 0) throw invalid();
  const out: number[] = [];
  for (let i = 0; i < text.length; i += 4) {
    const last = i + 4 === text.length;
    const [a, b, c, d] = [0, 1, 2, 3].map((k) => DIGITS.get(text[i + k]!));
    if (a === undefined || b === undefined) throw invalid();
    out.push((a << 2) | (b >> 4));
    if (c === undefined) {
      if (!last || text[i + 2] !== '=' || text[i + 3] !== '=' || (b & 15) !== 0) throw invalid();
      break;
    }
    out.push(((b & 15) << 4) | (c >> 2));
    if (d === undefined) {
      if (!last || text[i + 3] !== '=' || (c & 3) !== 0) throw invalid();
      break;
    }
    out.push(((c & 3) << 6) | d);
  }
  return Uint8Array.from(out);
}

/**
 * Puppet's `%b`: the text padded by `=` for its length modulo 3, then Ruby's lenient `decode64`, which skips
 * what is not of the alphabet and stops at the first `=`.
 */
function decodeRelaxed(text: string): Uint8Array {
  const digits: number[] = [];
  for (const c of text + '='.repeat(text.length % 3)) {
    if (c === '=') break;
    const d = DIGITS.get(c);
    if (d !== undefined) digits.push(d);
  }
  const out: number[] = [];
  let i = 0;
  for (; i + 4 <= digits.length; i += 4) {
    const [a, b, c, d] = digits.slice(i, i + 4) as [number, number, number, number];
    out.push((a << 2) | (b >> 4), ((b & 15) << 4) | (c >> 2), ((c & 3) << 6) | d);
  }
  const rest = digits.slice(i);
  if (rest.length >= 2) out.push((rest[0]! << 2) | (rest[1]! >> 4));
  if (rest.length === 3) out.push(((rest[1]! & 15) << 4) | (rest[2]! >> 2));
  return Uint8Array.from(out);
}

/** Puppet's dispatcher's message: each signature of `new_Binary` and why it refused the arguments. */
function mismatch(args: Value[]): string {
  const [first, format] = args;
  const typeName = (v: Value) => inferType(v).name;
  const count = (n: number) => `expects ${n} argument, got ${args.length}`;
  let fromString: string;
  if (typeof first !== 'string')
    fromString = `parameter 'str' expects a String value, got ${typeName(first)}`;
  else if (typeof format === 'string')
    fromString = `parameter 'format' expects a match for ${BASE64_FORMAT}, got '${format}'`;
  else fromString = `parameter 'format' expects a ${BASE64_FORMAT} value, got ${typeName(format)}`;
  let fromArray: string;
  if (args.length !== 1) fromArray = count(1);
  else if (!Array.isArray(first))
    fromArray = `parameter 'byte_array' expects an Array value, got ${typeName(first)}`;
  else {
    const index = first.findIndex((b) => !(typeof b === 'number' && b >= 0 && b <= 255));
    fromArray = `parameter 'byte_array' index ${index} expects a ${BYTE} value, got ${inferType(first[index])}`;
  }
  const fromHash =
    args.length !== 1
      ? count(1)
      : `parameter 'hash_args' expects a ${ARGS_HASH} value, got ${typeName(first)}`;
  return [
    "The function 'new_Binary' was called with arguments it does not accept. It expects one of:",
    `  (String str, ${BASE64_FORMAT} format?)`,
    `    rejected: ${fromString}`,
    '  (Array[ByteInteger] byte_array)',
    `    rejected: ${fromArray}`,
    `  (${ARGS_HASH} hash_args)`,
    `    rejected: ${fromHash}`,
  ].join('\n');
}
