/**
 * `pantograph lsp`: the language server, over a pair of streams (stdio). It is a client of the library
 * (src/index.ts) as the command line is; this module only speaks the protocol and sends each document to
 * the module of its kind: EPP templates (epp.ts), a template repository's template.json and
 * template_schema.json (repository.ts), a project's .sync.yml (sync.ts).
 *
 * Diagnostics of EPP and JSON files are made at once after a change (one run for a burst of changes);
 * those of `.sync.yml` plan the whole project, so they wait for a pause in typing. A failing handler is
 * logged and answered with an empty result: nothing the client sends may stop the server.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Connection, Diagnostic, InitializeResult, TextDocuments } from 'vscode-languageserver/node';
import { ENGINE_VERSION, type ReadText } from '../index.js';
import { EppDocuments, pathOf } from './epp.js';
import { guardedDecoder } from './guard.js';
import { lsp, TextDocument } from './protocol.js';
import { isTemplateFile, templateFileDiagnostics } from './repository.js';
import { SyncDocuments } from './sync.js';

/** How long `.sync.yml` diagnostics wait for typing to pause. */
const SYNC_DELAY_MS = 150;

type Kind = 'epp' | 'template-file' | 'sync' | 'other';

function kindOf(uri: string): Kind {
  if (uri.endsWith('.epp')) return 'epp';
  if (isTemplateFile(uri)) return 'template-file';
  if (basename(pathOf(uri)) === '.sync.yml') return 'sync';
  return 'other';
}

/** Serves one client until its stream closes (or it sends `exit`). */
export interface ServerOptions {
  /**
   * Run the project's own code (JavaScript hooks, V1 templates) when checking a `.sync.yml`, as
   * `pantograph status` does. Off by default: opening a cloned repository in an editor must not run it.
   */
  readonly trust?: boolean;
}

/** What the diagnostics say to do about hooks that did not run. */
const DISTRUST = {
  hint: 'the language server runs no code of a project (JavaScript hooks, V1 templates) unless it is started as `pantograph lsp --trust`: set that in your editor for projects you trust',
};

export function startServer(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  options: ServerOptions = {},
): Promise<void> {
  const writer = new lsp.StreamMessageWriter(output);
  const reader = new lsp.StreamMessageReader(input, {
    contentTypeDecoder: guardedDecoder((response) => void writer.write(response)),
  });
  const connection = lsp.createConnection(reader, writer);
  const documents: TextDocuments<TextDocument> = new lsp.TextDocuments(TextDocument);
  const server = new Server(connection, documents, options.trust === true);
  server.register();
  documents.listen(connection);
  connection.listen();
  return new Promise((resolve) => reader.onClose(() => resolve()));
}

class Server {
  private readonly read: ReadText = (path) => {
    for (const d of this.documents.all()) if (pathOf(d.uri) === path) return d.getText();
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };
  private readonly epp = new EppDocuments(this.read);
  private readonly sync: SyncDocuments;
  /** Documents whose diagnostics are due, made together on the next turn of the event loop. */
  private readonly due = new Set<string>();
  private readonly syncTimers = new Map<string, NodeJS.Timeout>();
  /** Whether `initialize` has come: requests before it are refused (-32002). */
  private initialized = false;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    trust: boolean,
  ) {
    this.sync = new SyncDocuments(trust ? { offline: true } : { offline: true, distrust: DISTRUST });
  }

  register(): void {
    const { connection, documents } = this;
    connection.onInitialize(() => {
      this.initialized = true;
      return this.capabilities();
    });
    documents.onDidChangeContent(({ document }) => this.changed(document));
    documents.onDidClose(({ document }) => {
      this.epp.forget(document.uri);
      this.sync.forget(document.uri);
      void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
    });
    connection.onHover(
      this.guard(null, async ({ textDocument, position }) => {
        const document = documents.get(textDocument.uri);
        if (!document) return null;
        const kind = kindOf(document.uri);
        if (kind === 'epp') return this.epp.hover(document, position);
        if (kind === 'sync') return this.sync.hover(document, position);
        return null;
      }),
    );
    connection.onCompletion(
      this.guard([], async ({ textDocument, position }) => {
        const document = documents.get(textDocument.uri);
        if (!document) return [];
        const kind = kindOf(document.uri);
        if (kind === 'epp') return this.epp.completion(document, position);
        if (kind === 'sync') return this.sync.completion(document, position);
        return [];
      }),
    );
    connection.onDefinition(
      this.guard(null, async ({ textDocument, position }) => {
        const document = documents.get(textDocument.uri);
        return document && kindOf(document.uri) === 'epp' ? this.epp.definition(document, position) : null;
      }),
    );
    connection.onDocumentSymbol(
      this.guard([], async ({ textDocument }) => {
        const document = documents.get(textDocument.uri);
        return document && kindOf(document.uri) === 'epp' ? this.epp.symbols(document) : [];
      }),
    );
  }

  private capabilities(): InitializeResult {
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: lsp.TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['$', ' ', '-'] },
        definitionProvider: true,
        documentSymbolProvider: true,
      },
      serverInfo: { name: 'pantograph', version: ENGINE_VERSION },
    };
  }

  /**
   * A handler whose failure (a bug, or params that are not what the protocol says) answers `fallback`;
   * before `initialize`, a request is the protocol's error -32002, as the specification asks.
   */
  private guard<P, R>(fallback: R, handler: (params: P) => Promise<R>): (params: P) => Promise<R> {
    return async (params) => {
      if (!this.initialized) {
        throw new lsp.ResponseError(lsp.ErrorCodes.ServerNotInitialized, 'send initialize first');
      }
      try {
        if (typeof params !== 'object' || params === null) return fallback;
        return await handler(params);
      } catch (e) {
        this.connection.console.error(`pantograph: ${(e as Error).stack ?? String(e)}`);
        return fallback;
      }
    };
  }

  private changed(document: TextDocument): void {
    const kind = kindOf(document.uri);
    if (kind === 'sync') {
      clearTimeout(this.syncTimers.get(document.uri));
      this.syncTimers.set(
        document.uri,
        setTimeout(() => void this.publishSync(document.uri), SYNC_DELAY_MS),
      );
      return;
    }
    if (kind === 'other') return;
    // A template's files read its template.json and schema: check the open ones again too.
    if (kind === 'template-file') {
      for (const d of this.documents.all()) if (kindOf(d.uri) === 'epp') this.schedule(d.uri);
    }
    this.schedule(document.uri);
  }

  private schedule(uri: string): void {
    if (this.due.size === 0) setImmediate(() => this.publishDue());
    this.due.add(uri);
  }

  private publishDue(): void {
    const uris = [...this.due];
    this.due.clear();
    for (const uri of uris) {
      const document = this.documents.get(uri);
      if (!document) continue;
      this.publish(document, () =>
        kindOf(uri) === 'epp' ? this.epp.diagnostics(document) : templateFileDiagnostics(document),
      );
    }
  }

  private async publishSync(uri: string): Promise<void> {
    this.syncTimers.delete(uri);
    const document = this.documents.get(uri);
    if (!document) return;
    let diagnostics: Diagnostic[];
    try {
      diagnostics = await this.sync.diagnostics(document);
    } catch (e) {
      this.connection.console.error(`pantograph: ${(e as Error).stack ?? String(e)}`);
      return;
    }
    // Typing went on while the project was validated: newer diagnostics are on their way.
    if (this.documents.get(uri)?.version !== document.version) return;
    void this.connection.sendDiagnostics({ uri, version: document.version, diagnostics });
  }

  private publish(document: TextDocument, make: () => Diagnostic[]): void {
    let diagnostics: Diagnostic[];
    try {
      diagnostics = make();
    } catch (e) {
      this.connection.console.error(`pantograph: ${(e as Error).stack ?? String(e)}`);
      return;
    }
    void this.connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  }
}
