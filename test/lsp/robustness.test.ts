/**
 * Bad input to the language server gets protocol errors, never a crash: malformed JSON-RPC, a body that
 * is not UTF-8, a JSON value that is no message, unknown methods, requests with nonsense params, and a
 * document that is not valid Unicode text. After each, the server still answers.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';
import { LspClient, uriOf } from './client.js';

let dir: string;
let client: LspClient;

beforeAll(async () => {
  dir = tempTree({ 'a.epp': '<%= 1 %>\n' });
  client = new LspClient(dir);
  await client.initialize(uriOf(dir));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

/** The server still serves: a hover on a document it knows. */
async function stillServes(): Promise<void> {
  const uri = uriOf(join(dir, 'alive.epp'));
  client.open(uri, '<%- | $x | -%><%= $x %>\n');
  await client.diagnostics(uri);
  const hover = await client.request('textDocument/hover', {
    textDocument: { uri },
    position: { line: 0, character: 19 },
  });
  expect(hover.error).toBeUndefined();
  expect(hover.result).not.toBeNull();
  client.notify('textDocument/didClose', { textDocument: { uri } });
}

const errorWithNullId = (code: number) => (m: { id?: unknown; error?: { code: number } }) =>
  m.id === null && m.error?.code === code;

describe('bad input', () => {
  it('answers malformed JSON with a parse error (-32700)', async () => {
    client.sendRaw('{"jsonrpc": "2.0", "id": 99, "method": ');
    const answer = await client.wait(errorWithNullId(-32700));
    expect(answer.error?.message).toMatch(/^Parse error/);
    await stillServes();
  });

  it('answers a body that is not UTF-8 with a parse error', async () => {
    const body = Buffer.concat([
      Buffer.from(
        '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.epp","languageId":"epp","version":1,"text":"',
      ),
      Buffer.from([0xff, 0xfe, 0x80]),
      Buffer.from('"}}}'),
    ]);
    client.sendRaw(body);
    const answer = await client.wait(errorWithNullId(-32700));
    expect(answer.error?.message).toContain('not valid UTF-8');
    await stillServes();
  });

  it('answers JSON that is no JSON-RPC message with an invalid request (-32600)', async () => {
    client.sendRaw('[1, 2, 3]');
    await client.wait(errorWithNullId(-32600));
    client.sendRaw('{"id": 5, "method": "initialize"}');
    await client.wait(errorWithNullId(-32600));
    await stillServes();
  });

  it('answers a header it cannot frame with a parse error, and reads the next message', async () => {
    const broken = [
      [
        'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{"jsonrpc":"2.0"}',
        'a message header without Content-Length',
      ],
      [
        'Content-Length: twelve\r\n\r\n{"jsonrpc":"2.0"}',
        'a Content-Length that is no number of bytes ("twelve")',
      ],
      ['Content-Length: -5\r\n\r\n', 'a Content-Length that is no number of bytes ("-5")'],
      [
        'garbage\r\nContent-Length: 2\r\n\r\n{}',
        `a message header line that is no 'name: value' ("garbage")`,
      ],
      [
        'Content-Length: 99999999999999\r\n\r\n{}',
        'a Content-Length of 99999999999999 bytes, over the limit of 1073741824',
      ],
    ] as const;
    for (const [bytes, problem] of broken) {
      client.child.stdin.write(bytes);
      const answer = await client.wait(errorWithNullId(-32700));
      expect(answer.error?.message).toBe(
        `Parse error: ${problem}; the bytes up to the next Content-Length header are skipped`,
      );
      await stillServes();
    }
  });

  it('reads a message that comes one byte at a time', async () => {
    const uri = uriOf(join(dir, 'slow.epp'));
    const body = Buffer.from(
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'textDocument/didOpen',
        params: { textDocument: { uri, languageId: 'epp', version: 1, text: 'é😀 <%= 1 + %>\n' } },
      }),
    );
    const bytes = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    for (const byte of bytes) client.child.stdin.write(Buffer.from([byte]));
    expect((await client.diagnostics(uri, 1)).map((d) => d.code)).toEqual(['EPP_SYNTAX']);
  });

  it('answers an unknown method with method not found (-32601)', async () => {
    const answer = await client.request('pantograph/nonsense', {});
    expect(answer.error?.code).toBe(-32601);
    // Unknown notifications are ignored.
    client.notify('pantograph/nonsense', {});
    await stillServes();
  });

  it('answers requests with nonsense params, and about unknown documents, with empty results', async () => {
    // The protocol library reads params before any handler: an internal error (-32603), as an answer.
    expect((await client.request('textDocument/hover', null)).error?.code).toBe(-32603);
    expect((await client.request('textDocument/hover', { textDocument: 5 })).result).toBeNull();
    const unknown = { textDocument: { uri: 'file:///nowhere.epp' }, position: { line: 0, character: 0 } };
    expect((await client.request('textDocument/completion', unknown)).result).toEqual([]);
    expect((await client.request('textDocument/definition', unknown)).result).toBeNull();
    client.notify('textDocument/didChange', { textDocument: { uri: 'file:///nowhere.epp', version: 2 } });
    client.notify('textDocument/didOpen', { textDocument: { uri: 'file:///odd.epp', text: 42 } });
    await stillServes();
  });

  it('reports a document that is not valid Unicode text, and recovers when it is', async () => {
    const uri = uriOf(join(dir, 'surrogate.epp'));
    // A JSON escape may carry a lone surrogate, which no UTF-8 file can hold.
    client.sendRaw(
      `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"${uri}","languageId":"epp","version":1,"text":"ok\\n<%= 'a\\udc80' %>\\n"}}}`,
    );
    expect(await client.diagnostics(uri, 1)).toMatchObject([
      { code: 'EPP_ENCODING', severity: 1, range: { start: { line: 1, character: 6 } } },
    ]);
    client.change(uri, 2, [{ text: "ok\n<%= 'a' %>\n" }]);
    expect(await client.diagnostics(uri, 2)).toEqual([]);
  });
});

describe('a cancelled request ($/cancelRequest)', () => {
  const RequestCancelled = -32800;

  it("is answered with the protocol's RequestCancelled (-32800), not an empty result, while it waits for its document's check", async () => {
    const uri = uriOf(join(dir, 'cancelled.epp'));
    const position = { textDocument: { uri }, position: { line: 0, character: 19 } };
    let hover!: ReturnType<LspClient['cancellable']>;
    let completion!: ReturnType<LspClient['cancellable']>;
    // Opened, asked and cancelled at once: each request waits for the check of the text just opened.
    client.together(() => {
      client.open(uri, '<%- | $x | -%><%= $x %>\n');
      hover = client.cancellable('textDocument/hover', position);
      completion = client.cancellable('textDocument/completion', position);
      hover.cancel();
      completion.cancel();
    });
    for (const request of [hover, completion]) {
      const answer = await request.answer;
      expect(answer.error?.code).toBe(RequestCancelled);
      expect(answer).not.toHaveProperty('result');
    }
    // The same request not cancelled is answered, and the server goes on.
    const answered = await client.request('textDocument/hover', position);
    expect(answered.error).toBeUndefined();
    expect(answered.result).not.toBeNull();
    client.notify('textDocument/didClose', { textDocument: { uri } });
    await stillServes();
  });

  it('is answered with -32800 when it was cancelled before the server read it', async () => {
    const uri = uriOf(join(dir, 'a.epp'));
    let hover!: ReturnType<LspClient['cancellable']>;
    client.together(() => {
      hover = client.cancellable('textDocument/hover', {
        textDocument: { uri },
        position: { line: 0, character: 4 },
      });
      hover.cancel();
    });
    expect((await hover.answer).error?.code).toBe(RequestCancelled);
    // A cancellation of a request already answered, or of one never sent, changes nothing.
    client.notify('$/cancelRequest', { id: 999_999 });
    await stillServes();
  });
});

describe('before initialize', () => {
  it('answers a request with -32002 (server not initialized), then serves once initialized', async () => {
    const other = new LspClient(dir);
    const early = await other.request('textDocument/hover', {
      textDocument: { uri: uriOf(join(dir, 'a.epp')) },
      position: { line: 0, character: 4 },
    });
    expect(early.error?.code).toBe(-32002);
    await other.initialize(uriOf(dir));
    const later = await other.request('textDocument/hover', {
      textDocument: { uri: uriOf(join(dir, 'a.epp')) },
      position: { line: 0, character: 4 },
    });
    expect(later.error).toBeUndefined();
    expect(await other.close()).toBe(0);
  });
});

describe('the end of the stream', () => {
  it('ends the server when the editor closes its input without exit', async () => {
    const other = new LspClient(dir);
    await other.initialize(uriOf(dir));
    const exited = new Promise<number | null>((r) => other.child.on('exit', (code) => r(code)));
    other.child.stdin.end();
    expect(await exited).toBe(0);
  });
});
