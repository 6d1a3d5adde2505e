/**
 * A minimal LSP client for the protocol tests: spawns the built server (`node dist/cli/bin.cjs lsp`),
 * frames JSON-RPC messages with Content-Length headers as an editor does, and collects what comes back.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const BIN = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

export interface Message {
  readonly jsonrpc: '2.0';
  readonly id?: number | string | null;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { code: number; message: string };
}

export interface Diagnostic {
  readonly range: { start: { line: number; character: number }; end: { line: number; character: number } };
  readonly severity: number;
  readonly code: string;
  readonly message: string;
}

export class LspClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: Message[] = [];
  /** Every message the server sent, in order (`received` holds only those no one waited for). */
  readonly log: Message[] = [];
  stderr = '';
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private waiters: { test: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];

  constructor(cwd: string, env: NodeJS.ProcessEnv = process.env, args: readonly string[] = []) {
    this.child = spawn(process.execPath, [BIN, 'lsp', ...args], { cwd, env });
    this.child.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  /** Sends raw bytes (for malformed input). */
  sendRaw(body: Buffer | string): void {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`), bytes]));
  }

  /**
   * Sends what `send` sends in one write, as an editor's queued messages reach a server that was busy: the
   * server reads them at once (written one by one, a loaded machine could hand it a few at a time).
   */
  together(send: () => void): void {
    this.child.stdin.cork();
    try {
      send();
    } finally {
      this.child.stdin.uncork();
    }
  }

  notify(method: string, params: unknown): void {
    this.sendRaw(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  async request<T = unknown>(method: string, params: unknown): Promise<Message & { result?: T }> {
    const id = this.nextId++;
    const answer = this.wait((m) => m.id === id && m.method === undefined);
    this.sendRaw(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer as Promise<Message & { result?: T }>;
  }

  /** A request and its cancellation (`$/cancelRequest` for its id), as an editor cancels a stale one. */
  cancellable(method: string, params: unknown): { answer: Promise<Message>; cancel: () => void } {
    const id = this.nextId++;
    const answer = this.wait((m) => m.id === id && m.method === undefined);
    this.sendRaw(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return { answer, cancel: () => this.notify('$/cancelRequest', { id }) };
  }

  async initialize(rootUri: string): Promise<Message> {
    const answer = await this.request('initialize', { processId: process.pid, rootUri, capabilities: {} });
    this.notify('initialized', {});
    return answer;
  }

  /** The first message (already received or to come) that passes `test`. */
  wait(test: (m: Message) => boolean, timeoutMs = 20_000): Promise<Message> {
    const found = this.received.find(test);
    if (found) {
      this.received.splice(this.received.indexOf(found), 1);
      return Promise.resolve(found);
    }
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no such message within ${timeoutMs} ms; stderr: ${this.stderr}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolvePromise(m);
        },
      });
    });
  }

  /** The next diagnostics published for `uri` (optionally for a given version). */
  async diagnostics(uri: string, version?: number, timeoutMs?: number): Promise<Diagnostic[]> {
    const m = await this.wait((x) => {
      if (x.method !== 'textDocument/publishDiagnostics') return false;
      const p = x.params as { uri: string; version?: number };
      return p.uri === uri && (version === undefined || p.version === version);
    }, timeoutMs);
    return (m.params as { diagnostics: Diagnostic[] }).diagnostics;
  }

  open(uri: string, text: string, languageId = 'epp', version = 1): void {
    this.notify('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  change(uri: string, version: number, changes: unknown[]): void {
    this.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
  }

  async close(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((r) => this.child.on('exit', (code) => r(code)));
    await this.request('shutdown', null);
    this.notify('exit', null);
    return exited;
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const length = Number(
        /Content-Length: (\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString())?.[1],
      );
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      const message = JSON.parse(body) as Message;
      this.log.push(message);
      const waiter = this.waiters.find((w) => w.test(message));
      if (waiter) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      } else {
        this.received.push(message);
      }
    }
  }
}

export function uriOf(path: string): string {
  return pathToFileURL(path).href;
}
