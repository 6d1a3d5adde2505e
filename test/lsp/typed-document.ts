/**
 * An open document as an editor holds it while a user types: its text and version, changed one character
 * at a time with incremental edits (a range and the character typed, as VS Code and Neovim send them),
 * without waiting for the server between keys.
 */
import type { Diagnostic, LspClient, Message } from './client.js';

export class TypedDocument {
  version = 1;
  constructor(
    private readonly client: LspClient,
    readonly uri: string,
    public text: string,
    languageId: string,
  ) {
    client.open(uri, text, languageId);
  }

  private at(offset: number) {
    const lines = this.text.slice(0, offset).split('\n');
    return { line: lines.length - 1, character: lines.at(-1)!.length };
  }

  /** Types `chars` at `offset` (the end by default), one change per character, without waiting. */
  type(chars: string, offset = this.text.length): void {
    for (const ch of chars) {
      const p = this.at(offset);
      this.text = this.text.slice(0, offset) + ch + this.text.slice(offset);
      this.client.change(this.uri, ++this.version, [{ range: { start: p, end: p }, text: ch }]);
      offset++;
    }
  }

  /** Deletes `length` characters at `offset`, one backspace each (from the last). */
  erase(offset: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) {
      const start = this.at(offset + i);
      const end = this.at(offset + i + 1);
      this.text = this.text.slice(0, offset + i) + this.text.slice(offset + i + 1);
      this.client.change(this.uri, ++this.version, [{ range: { start, end }, text: '' }]);
    }
  }

  /** The diagnostics published for the current version. */
  diagnostics(timeoutMs?: number): Promise<Diagnostic[]> {
    return this.client.diagnostics(this.uri, this.version, timeoutMs);
  }

  position(offset: number) {
    return { textDocument: { uri: this.uri }, position: this.at(offset) };
  }

  /** Closes it: the diagnostics published then (none: a closed file shows no problems of its own). */
  async close(): Promise<Diagnostic[]> {
    this.client.notify('textDocument/didSave', { textDocument: { uri: this.uri } });
    this.client.notify('textDocument/didClose', { textDocument: { uri: this.uri } });
    const m = await this.client.wait(
      (x: Message) =>
        x.method === 'textDocument/publishDiagnostics' &&
        (x.params as { uri: string; version?: number }).uri === this.uri &&
        (x.params as { version?: number }).version === undefined,
    );
    return (m.params as { diagnostics: Diagnostic[] }).diagnostics;
  }
}
