/**
 * The message framing of the protocol (`Content-Length: N\r\n\r\n` and N bytes of body), checked before
 * the JSON-RPC library reads it. The library, given a header without a usable `Content-Length` (none, not
 * a number, a line that is no `key: value`), only logs an error and leaves the body where the next header
 * should be: every message after it was read as garbage, and the server never answered again. Here such a
 * header gets a parse error (-32700, `id: null`, as for a body that is no JSON), and reading resumes at the
 * next `Content-Length:` header; well-formed messages pass through unchanged.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { ResponseMessage } from 'vscode-languageserver/node';
import { PARSE_ERROR } from './guard.js';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /content-length:/i;
/** A header block longer than this is no header: an editor sends two short lines. */
const MAX_HEADER_BYTES = 8 * 1024;
/**
 * A body longer than this is refused unread (1 GiB): the documents an editor sends are far smaller (the
 * server checks none over 2 million characters), and a length of 10^15 would keep every later message
 * waiting as its body.
 */
export const MAX_BODY_BYTES = 1024 * 1024 * 1024;

export class FramingGuard extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  /** Skipping bytes up to the next `Content-Length:` header after a broken one. */
  private resyncing = false;
  /** The length of the body being read, or -1 while a header is read. */
  private bodyLength = -1;

  constructor(private readonly reply: (response: ResponseMessage) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    this.drain();
    done();
  }

  private drain(): void {
    for (;;) {
      if (this.resyncing && !this.resync()) return;
      if (this.bodyLength >= 0) {
        if (this.buffer.length < this.bodyLength) return;
        this.push(this.buffer.subarray(0, this.bodyLength));
        this.buffer = this.buffer.subarray(this.bodyLength);
        this.bodyLength = -1;
        continue;
      }
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) {
        if (this.buffer.length > MAX_HEADER_BYTES) this.refuse('a message header that does not end');
        else return;
        continue;
      }
      const header = this.buffer.subarray(0, end + HEADER_END.length);
      const problem = headerProblem(header.subarray(0, end).toString('latin1'));
      this.buffer = this.buffer.subarray(header.length);
      if (typeof problem === 'string') {
        this.refuse(problem);
        continue;
      }
      // The header as it came, then its body once whole: the library reads them as before.
      this.push(header);
      this.bodyLength = problem;
    }
  }

  /** Drops the bytes before the next `Content-Length:`; false when none is buffered yet. */
  private resync(): boolean {
    const at = this.buffer.toString('latin1').search(CONTENT_LENGTH);
    if (at < 0) {
      // Keep a tail that may be the start of a split `Content-Length:`.
      this.buffer = this.buffer.subarray(Math.max(0, this.buffer.length - 15));
      return false;
    }
    this.buffer = this.buffer.subarray(at);
    this.resyncing = false;
    return true;
  }

  private refuse(problem: string): void {
    this.reply({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: PARSE_ERROR,
        message: `Parse error: ${problem}; the bytes up to the next Content-Length header are skipped`,
      },
    });
    this.resyncing = true;
  }
}

/** The body's length a header block gives, or what is wrong with it. */
function headerProblem(block: string): number | string {
  let length: number | string = 'a message header without Content-Length';
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0)
      return `a message header line that is no 'name: value' (${JSON.stringify(line.slice(0, 40))})`;
    if (line.slice(0, colon).trim().toLowerCase() !== 'content-length') continue;
    const value = line.slice(colon + 1).trim();
    if (!/^\d+$/.test(value))
      return `a Content-Length that is no number of bytes (${JSON.stringify(value.slice(0, 40))})`;
    length = Number(value);
    if (length > MAX_BODY_BYTES)
      return `a Content-Length of ${value} bytes, over the limit of ${MAX_BODY_BYTES}`;
  }
  return length;
}
