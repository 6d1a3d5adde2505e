/**
 * Bad input gets a protocol error, never a crash. The JSON-RPC library only logs a body it cannot decode
 * and drops a JSON value that is no message; JSON-RPC 2.0 asks for an answer with `id: null` (-32700
 * "Parse error", -32600 "Invalid Request"). This decoder of message bodies sends that answer itself and
 * hands the library a notification nobody handles (`$/` notifications may be ignored), so reading goes on.
 * A body that is not UTF-8 is a parse error too: the library would decode it with replacement characters.
 */
import type { Message, ResponseMessage } from 'vscode-languageserver/node';

export const IGNORED = { jsonrpc: '2.0', method: '$/pantograph/ignored' } as const;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

export interface ContentTypeDecoder {
  readonly name: string;
  decode(buffer: Uint8Array, options: { charset: string }): Promise<Message>;
}

/** The body decoder; `reply` sends an error response (the connection's writer). */
export function guardedDecoder(reply: (response: ResponseMessage) => void): ContentTypeDecoder {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const fail = (code: number, message: string) => {
    reply({ jsonrpc: '2.0', id: null, error: { code, message } });
    return IGNORED;
  };
  return {
    name: 'application/json',
    async decode(buffer) {
      let text: string;
      try {
        text = utf8.decode(buffer);
      } catch {
        return fail(PARSE_ERROR, 'Parse error: the message is not valid UTF-8');
      }
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        return fail(PARSE_ERROR, `Parse error: ${(e as Error).message}`);
      }
      if (!isMessage(value)) return fail(INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 message');
      return value;
    },
  };
}

/** A request, notification or response of JSON-RPC 2.0 (batches are not part of the LSP). */
function isMessage(value: unknown): value is Message {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return false;
  if ('method' in m) return typeof m.method === 'string';
  return 'id' in m && ('result' in m || 'error' in m);
}
