/**
 * `pantograph lsp`: the language server, over a pair of streams (stdio). It is a client of the library
 * (src/index.ts) as the command line is; this module only speaks the protocol and sends each document to
 * the module of its kind: EPP templates (epp.ts), a template repository's template.json and
 * template_schema.json (repository.ts), a project's .sync.yml (sync.ts).
 *
 * Diagnostics are made off the server's thread, in workers it terminates at a time limit (checker.ts), so
 * that no file can stop it; so are the syntax trees EPP requests need (epp-query.ts). Those of EPP and JSON files are made at once after a change (a burst of
 * changes makes one check, of its last state; the result of a text changed since is dropped); those of
 * `.sync.yml` validate the whole project, so they wait for a pause in typing, and they run again when a
 * file the project's templates read changes (its unsaved text included). Render errors the validation
 * finds in a template's files are published on those files. A failing handler is logged and answered
 * with an empty result: nothing the client sends may stop the server.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  CancellationToken,
  Connection,
  Diagnostic,
  InitializeResult,
  Range,
  TextDocuments,
} from 'vscode-languageserver/node';
import { ENGINE_VERSION, fromProblem, type Problem, type ReadText } from '../index.js';
import { Checker, type CheckJob, CheckLimitError, type CheckResult } from './checker.js';
import { encodingProblem, mergeFindings, toDiagnostic } from './diagnostics.js';
import { type AskTree, EppDocuments, pathOf } from './epp.js';
import type { EppQuery, EppQueryResult } from './epp-query.js';
import { FramingGuard } from './framing.js';
import { guardedDecoder } from './guard.js';
import { lsp, TextDocument } from './protocol.js';
import { isTemplateFile } from './repository.js';
import { SyncDocuments } from './sync.js';

/** How long `.sync.yml` diagnostics wait for typing to pause. */
const SYNC_DELAY_MS = 150;
/**
 * How long other checks wait for the next change: the changes an editor sends together (a paste, a
 * replace-all, a queue built up while the server was busy) are read before the check starts, so that a
 * burst makes one check, of its last state.
 */
const BURST_MS = 5;

/**
 * What one check may cost. A document larger than `maxChars` gets one diagnostic saying so instead;
 * a check runs at most `timeMs` (an EPP or JSON file) or `syncTimeMs` (a project, for `.sync.yml`), in a
 * worker of at most `memoryMb`; at most `maxDiagnostics` diagnostics are shown per file, then a note of
 * how many more there are. `PANTOGRAPH_LSP_TIME_LIMIT` (seconds) sets both time limits.
 */
export const LIMITS = {
  maxChars: 2_000_000,
  timeMs: 5_000,
  syncTimeMs: 60_000,
  memoryMb: 512,
  syncMemoryMb: 1024,
  maxDiagnostics: 1000,
} as const;

type Kind = 'epp' | 'template-file' | 'sync' | 'other';

function kindOf(document: { readonly uri: string; readonly languageId?: string }): Kind {
  const { uri } = document;
  if (uri.endsWith('.epp')) return 'epp';
  if (isTemplateFile(uri)) return 'template-file';
  if (basename(pathOf(uri)) === '.sync.yml') return 'sync';
  // A buffer that is no `*.epp` file (untitled, a notebook cell) the editor says is EPP.
  if (document.languageId === 'epp' && !uri.startsWith('file:')) return 'epp';
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
  const framed = input.pipe(new FramingGuard((response) => void writer.write(response)));
  const reader = new lsp.StreamMessageReader(framed, {
    contentTypeDecoder: guardedDecoder((response) => void writer.write(response)),
  });
  const connection = lsp.createConnection(reader, writer);
  const documents: TextDocuments<TextDocument> = new lsp.TextDocuments(TextDocument);
  const server = new Server(connection, documents, options.trust === true);
  server.register();
  documents.listen(connection);
  connection.listen();
  return new Promise((resolve) =>
    reader.onClose(() => {
      server.close();
      resolve();
    }),
  );
}

/** The checks of one document: a burst's timer, whether one runs, whether another is due after it. */
interface Checks {
  timer: NodeJS.Timeout | undefined;
  running: boolean;
  again: boolean;
  /** Requests waiting for the document's check to be done. */
  readonly waiters: (() => void)[];
}

/** Diagnostics a project's validation found in another file than its `.sync.yml` (a template's). */
interface Elsewhere {
  /** The file's text they were found in: they are shown while its buffer still has that text. */
  readonly text: string;
  readonly diagnostics: readonly Diagnostic[];
}

function timeLimitMs(env: NodeJS.ProcessEnv, fallback: number): number {
  const seconds = Number(env.PANTOGRAPH_LSP_TIME_LIMIT);
  return env.PANTOGRAPH_LSP_TIME_LIMIT && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : fallback;
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
  private readonly checker = new Checker(
    { timeMs: timeLimitMs(process.env, LIMITS.timeMs), memoryMb: LIMITS.memoryMb },
    'not checked: checking this file',
    2,
  );
  /**
   * Parses EPP texts for hover, go-to-definition, symbols and completion, under a check's limits: a
   * hostile template stalls a worker, not the server. Two workers: the requests of one document run one
   * after another, so that another document always finds one free. A worker keeps the trees it made for
   * the next request, and a request waits behind no check.
   */
  private readonly treeChecker = new Checker(
    { timeMs: timeLimitMs(process.env, LIMITS.timeMs), memoryMb: LIMITS.memoryMb },
    'no hover, definition or completion: parsing this file',
    2,
  );
  /** The text (by URI) whose parse for requests a limit stopped: it is not parsed again for them. */
  private readonly treeLimited = new Map<string, string>();
  /** By URI: the end of its last tree request (the next one waits for it). */
  private readonly treeQueues = new Map<string, Promise<unknown>>();
  /** By request kind and URI: the latest request; one replaced while it waited is answered empty. */
  private readonly treeLatest = new Map<string, number>();
  private treeRequests = 0;
  private readonly ask: AskTree = (uri, query) => {
    const key = `${query.what} ${uri}`;
    const id = ++this.treeRequests;
    this.treeLatest.set(key, id);
    const answer = (this.treeQueues.get(uri) ?? Promise.resolve()).then(() =>
      this.treeLatest.get(key) === id ? (this.askNow(uri, query) as Promise<never>) : undefined,
    );
    const done = answer.catch(() => undefined);
    this.treeQueues.set(uri, done);
    void done.then(() => {
      if (this.treeQueues.get(uri) === done) this.treeQueues.delete(uri);
    });
    return answer;
  };
  private readonly epp = new EppDocuments(this.read, this.ask, LIMITS.maxChars);
  private readonly sync: SyncDocuments;
  private readonly projectChecker = new Checker(
    { timeMs: timeLimitMs(process.env, LIMITS.syncTimeMs), memoryMb: LIMITS.syncMemoryMb },
    'not checked: validating the project',
  );
  /**
   * Loads a `.sync.yml`'s project for its completion and hover, apart from its validation (which may
   * take a minute) and under the shorter limit: a request should not wait long.
   */
  private readonly requestChecker = new Checker(
    { timeMs: timeLimitMs(process.env, LIMITS.timeMs), memoryMb: LIMITS.syncMemoryMb },
    'no completion or hover: loading the project',
  );
  /** The `.sync.yml` whose completion was last stopped at a limit (the user is told once). */
  private readonly toldStopped = new Set<string>();
  private readonly checks = new Map<string, Checks>();
  /** Each open document's own diagnostics, from its last check. */
  private readonly own = new Map<string, readonly Diagnostic[]>();
  /** How many problems of an open document the check found past those it sent. */
  private readonly more = new Map<string, number>();
  /** By `.sync.yml` URI: what its project's validation found in other files, by their URI. */
  private readonly elsewhere = new Map<string, Map<string, Elsewhere>>();
  /** A text that was stopped at a limit, by URI, and what it got: it is not checked again. */
  private readonly limited = new Map<string, { text: string; diagnostic: Diagnostic }>();
  /** Whether `initialize` has come: requests before it are refused (-32002). */
  private initialized = false;
  /** Whether `shutdown` has come: requests after it are refused (-32600), documents no longer checked. */
  private shutDown = false;

  constructor(
    private readonly connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    trust: boolean,
  ) {
    this.sync = new SyncDocuments(trust ? { offline: true } : { offline: true, distrust: DISTRUST }, {
      outline: async (document) => {
        const job = this.sync.job(document, this.overlay(document.uri));
        const result = await this.requestChecker.run({ ...job, outline: true } as CheckJob, {
          key: document.uri,
        });
        return result.kind === 'outline' ? result.outline : undefined;
      },
      views: async (document, text, template) => {
        const job = this.sync.job(document, this.overlay(document.uri));
        const result = await this.requestChecker.run({ ...job, text, views: template } as CheckJob, {
          what: 'no hover: planning the project (rendering its templates, as `pantograph show` does)',
        });
        return result.kind === 'views' ? result.views : undefined;
      },
    });
  }

  close(): void {
    this.checker.close();
    this.treeChecker.close();
    this.projectChecker.close();
    this.requestChecker.close();
  }

  /** The worker's answer to a tree request; undefined when a limit stopped it (the text is then left). */
  private async askNow(uri: string, query: EppQuery): Promise<EppQueryResult['answer'] | undefined> {
    const text = query.what === 'scope' ? query.text : query.source;
    if (this.treeLimited.get(uri) === text) return undefined;
    try {
      const result = await this.treeChecker.run(query);
      return result.kind === 'epp-query' && result.what === query.what ? result.answer : undefined;
    } catch (e) {
      if (!(e instanceof CheckLimitError)) throw e;
      this.treeLimited.set(uri, text);
      this.connection.console.warn(`pantograph: ${basename(pathOf(uri))}: ${e.message}`);
      return undefined;
    }
  }

  register(): void {
    const { connection, documents } = this;
    let watch = false;
    connection.onInitialize((params) => {
      this.initialized = true;
      watch = params?.capabilities?.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
      return this.capabilities();
    });
    // Files changed on disk and not open (a `git pull` in a template repository, a schema saved and
    // closed elsewhere) revalidate the projects that read them: an editor tells of them only when asked.
    connection.onInitialized(() => {
      if (!watch || this.shutDown) return;
      connection.client
        .register(lsp.DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: '**/*' }] })
        .catch((e: Error) => this.connection.console.warn(`pantograph: watching files: ${e.message}`));
    });
    connection.onShutdown(() => {
      if (!this.initialized) {
        throw new lsp.ResponseError(lsp.ErrorCodes.ServerNotInitialized, 'send initialize first');
      }
      if (this.shutDown)
        throw new lsp.ResponseError(lsp.ErrorCodes.InvalidRequest, 'the server is shut down');
      this.shutDown = true;
      for (const c of this.checks.values()) clearTimeout(c.timer);
      this.close();
    });
    documents.onDidChangeContent(({ document }) => this.changed(document));
    documents.onDidClose(({ document }) => {
      this.epp.forget(document.uri);
      this.sync.forget(document.uri);
      this.toldStopped.delete(document.uri);
      this.own.delete(document.uri);
      this.more.delete(document.uri);
      this.limited.delete(document.uri);
      this.treeLimited.delete(document.uri);
      this.treeLatest.delete(`reference ${document.uri}`);
      this.treeLatest.delete(`symbols ${document.uri}`);
      this.treeLatest.delete(`scope ${document.uri}`);
      clearTimeout(this.checks.get(document.uri)?.timer);
      this.checks.delete(document.uri);
      if (this.shutDown) return;
      const found = this.elsewhere.get(document.uri);
      this.elsewhere.delete(document.uri);
      this.send(document.uri);
      for (const uri of found?.keys() ?? []) this.send(uri);
      // Its unsaved text is gone: the projects reading it read the disk again, and so do the open files of
      // its template when it is a template.json or template_schema.json (their settings come from it).
      this.recheckProjects(pathOf(document.uri));
      if (isTemplateFile(document.uri)) this.recheckEpp();
    });
    connection.onDidChangeWatchedFiles(({ changes }) => {
      if (this.shutDown) return;
      for (const change of changes ?? []) {
        const path = pathOf(change.uri);
        this.recheckProjects(path);
        if (isTemplateFile(change.uri)) this.recheckEpp();
      }
    });
    connection.onHover(
      this.guard(null, async ({ textDocument, position }) => {
        const document = this.usable(textDocument.uri);
        if (!document) return null;
        const kind = kindOf(document);
        if (kind === 'epp') {
          await this.checked(document.uri);
          return this.epp.hover(document, position);
        }
        if (kind === 'sync') return this.sync.hover(document, position);
        return null;
      }),
    );
    connection.onCompletion(
      this.guard([], async ({ textDocument, position, context }) => {
        const document = this.usable(textDocument.uri);
        if (!document) return [];
        const kind = kindOf(document);
        // A client that sends a trigger character this server does not name (an older configuration).
        if (
          context?.triggerKind === lsp.CompletionTriggerKind.TriggerCharacter &&
          context.triggerCharacter !== '$'
        )
          return [];
        if (kind === 'epp') {
          await this.checked(document.uri);
          return this.epp.completion(document, position);
        }
        if (kind === 'sync') {
          const items = await this.sync.completion(document, position, (e) => this.tellStopped(document, e));
          if (items.length > 0) this.toldStopped.delete(document.uri);
          return items;
        }
        return [];
      }),
    );
    connection.onDefinition(
      this.guard(null, async ({ textDocument, position }) => {
        const document = this.usable(textDocument.uri);
        if (!document || kindOf(document) !== 'epp') return null;
        await this.checked(document.uri);
        return this.epp.definition(document, position);
      }),
    );
    connection.onDocumentSymbol(
      this.guard([], async ({ textDocument }) => {
        const document = this.usable(textDocument.uri);
        if (!document || kindOf(document) !== 'epp') return [];
        await this.checked(document.uri);
        return this.epp.symbols(document);
      }),
    );
  }

  /**
   * An empty completion list cannot say why it is empty: the first one a limit stopped is told in a
   * message (the editor shows it once, not on every keystroke).
   */
  private tellStopped(document: TextDocument, e: CheckLimitError): void {
    this.connection.console.warn(`pantograph: ${basename(pathOf(document.uri))}: ${e.message}`);
    if (this.toldStopped.has(document.uri)) return;
    this.toldStopped.add(document.uri);
    // A notification (`window/showMessage`): the user is told, nothing waits for an answer.
    void this.connection.sendNotification(lsp.ShowMessageNotification.type, {
      type: lsp.MessageType.Warning,
      message: `pantograph: ${e.message}. \`pantograph validate\` runs without this limit.`,
    });
  }

  private capabilities(): InitializeResult {
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: lsp.TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        // Only `$` starts a name wherever it is typed; other names are offered as they are typed.
        completionProvider: { triggerCharacters: ['$'] },
        definitionProvider: true,
        documentSymbolProvider: true,
      },
      serverInfo: { name: 'pantograph', version: ENGINE_VERSION },
    };
  }

  /**
   * A handler whose failure (a bug, or params that are not what the protocol says) answers `fallback`;
   * before `initialize`, a request is the protocol's error -32002, after `shutdown` -32600, as the
   * specification asks. A request the client cancels (`$/cancelRequest`) is answered at once with
   * -32800 (RequestCancelled), whatever its handler was waiting for (a project's check): an empty result
   * would say "nothing here", not "not computed".
   */
  private guard<P, R>(
    fallback: R,
    handler: (params: P) => Promise<R>,
  ): (params: P, token: CancellationToken) => Promise<R> {
    return async (params, token) => {
      if (!this.initialized) {
        throw new lsp.ResponseError(lsp.ErrorCodes.ServerNotInitialized, 'send initialize first');
      }
      if (this.shutDown)
        throw new lsp.ResponseError(lsp.ErrorCodes.InvalidRequest, 'the server is shut down');
      if (token.isCancellationRequested) throw cancelledError();
      try {
        if (typeof params !== 'object' || params === null) return fallback;
        return await untilCancelled(handler(params), token);
      } catch (e) {
        if (token.isCancellationRequested) throw cancelledError();
        this.connection.console.error(`pantograph: ${(e as Error).stack ?? String(e)}`);
        return fallback;
      }
    };
  }

  /** The open document, unless it is too large to serve. */
  private usable(uri: unknown): TextDocument | undefined {
    const document = typeof uri === 'string' ? this.documents.get(uri) : undefined;
    return document && document.getText().length <= LIMITS.maxChars ? document : undefined;
  }

  private changed(document: TextDocument): void {
    if (this.shutDown) return;
    const kind = kindOf(document);
    if (kind === 'sync') {
      this.schedule(document.uri, SYNC_DELAY_MS);
      return;
    }
    // The projects whose templates read this file validate again (its unsaved text included), unless it
    // was just opened as it is on disk.
    const path = pathOf(document.uri);
    if (this.checks.has(document.uri) || document.getText() !== readText(path)) this.recheckProjects(path);
    if (kind === 'other') return;
    // A template's files read its template.json and schema: check the open ones again too, once typing
    // pauses (their template's context is made again from the edited file, in this thread).
    if (kind === 'template-file') this.recheckEpp(SYNC_DELAY_MS);
    // The first hover of an EPP file does not wait for its worker to load.
    else this.treeChecker.warm();
    this.schedule(document.uri, BURST_MS);
  }

  private recheckEpp(delayMs = BURST_MS): void {
    for (const d of this.documents.all()) if (kindOf(d) === 'epp') this.schedule(d.uri, delayMs);
  }

  /** Validates again the open `.sync.yml` whose projects read `path` (the ones not loaded yet too). */
  private recheckProjects(path: string): void {
    for (const d of this.documents.all()) {
      if (kindOf(d) !== 'sync' || !this.sync.reads(d.uri, path)) continue;
      this.sync.stale(d.uri);
      this.schedule(d.uri, SYNC_DELAY_MS);
    }
  }

  private schedule(uri: string, delayMs: number): void {
    let c = this.checks.get(uri);
    if (!c) {
      c = { timer: undefined, running: false, again: false, waiters: [] };
      this.checks.set(uri, c);
    }
    const checks = c;
    clearTimeout(checks.timer);
    checks.timer = setTimeout(() => {
      checks.timer = undefined;
      void this.check(uri, checks);
    }, delayMs);
  }

  /** Resolves when the document's due check is done, or after a second (the last tree serves then). */
  private checked(uri: string): Promise<void> {
    const c = this.checks.get(uri);
    if (!c || (!c.running && !c.timer)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 1000);
      c.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Checks the document's current text, unless a check runs: then once more after it, with the last text. */
  private async check(uri: string, checks: Checks): Promise<void> {
    if (checks.running) {
      checks.again = true;
      return;
    }
    const document = this.documents.get(uri);
    if (!document || this.shutDown || this.checks.get(uri) !== checks) return;
    checks.running = true;
    try {
      await this.checkNow(document);
    } catch (e) {
      this.connection.console.error(`pantograph: ${(e as Error).stack ?? String(e)}`);
    } finally {
      checks.running = false;
    }
    if (checks.again) {
      checks.again = false;
      if (!checks.timer) void this.check(uri, checks);
    } else if (!checks.timer) {
      for (const w of checks.waiters.splice(0)) w();
    }
  }

  private async checkNow(document: TextDocument): Promise<void> {
    const { uri, version } = document;
    const text = document.getText();
    const kind = kindOf(document);
    const current = () => this.documents.get(uri)?.version === version && !this.shutDown;
    const epp = kind === 'epp' ? this.epp.job(document) : undefined;
    const unchecked = (diagnostic: Diagnostic) => {
      if (epp) this.epp.unchecked(document, version, epp);
      if (kind === 'sync') this.setElsewhere(uri, new Map());
      this.own.set(uri, [diagnostic]);
      this.more.delete(uri);
      this.send(uri);
    };
    const bad = encodingProblem(text);
    if (bad) return unchecked(toDiagnostic(document, bad));
    if (text.length > LIMITS.maxChars) return unchecked(tooLarge(document, text.length));
    const limited = this.limited.get(uri);
    if (limited?.text === text) return unchecked(limited.diagnostic);
    let overlay: Map<string, string> | undefined;
    let job: CheckJob;
    if (epp) job = epp.job;
    else if (kind === 'template-file') job = { kind: 'template-file', text, file: pathOf(uri) };
    else {
      overlay = this.overlay(uri);
      job = this.sync.job(document, overlay);
      void this.sync.warm(document);
    }
    let result: CheckResult;
    try {
      result = await (kind === 'sync' ? this.projectChecker : this.checker).run(job);
    } catch (e) {
      if (!(e instanceof CheckLimitError)) throw e;
      const diagnostic: Diagnostic = {
        range: firstLine(document),
        severity: lsp.DiagnosticSeverity.Warning,
        code: e.code,
        source: 'pantograph',
        message: e.message,
      };
      this.limited.set(uri, { text, diagnostic });
      if (current()) unchecked(diagnostic);
      return;
    }
    // Typing went on while the file was checked: a check of the newer text is on its way.
    if (!current()) return;
    if (result.kind === 'sync') {
      const { own, elsewhere } = this.sync.accept(document, text, result.problems);
      this.own.set(uri, own);
      this.more.delete(uri);
      const found = new Map<string, Elsewhere>();
      for (const [file, problems] of elsewhere) {
        const fileText = overlay?.get(file) ?? readText(file);
        if (fileText === undefined) continue;
        const fileUri = pathToFileURL(file).href;
        found.set(fileUri, { text: fileText, diagnostics: problems.map((p) => toDiagnosticIn(fileText, p)) });
      }
      this.setElsewhere(uri, found);
    } else if (result.kind === 'epp' || result.kind === 'template-file') {
      const diagnostics =
        result.kind === 'epp' && epp
          ? this.epp.accept(document, version, text, epp, result)
          : result.problems.map((p) => toDiagnostic(document, p));
      this.own.set(uri, diagnostics);
      this.more.set(uri, result.more);
    }
    this.send(uri);
  }

  /** The open documents' texts but the `.sync.yml` itself, by path (a project check reads them). */
  private overlay(except: string): Map<string, string> {
    const overlay = new Map<string, string>();
    for (const d of this.documents.all()) {
      if (d.uri !== except && d.uri.startsWith('file:')) overlay.set(pathOf(d.uri), d.getText());
    }
    return overlay;
  }

  /** Replaces what a project's validation found in other files, and sends theirs again. */
  private setElsewhere(syncUri: string, found: Map<string, Elsewhere>): void {
    const before = this.elsewhere.get(syncUri);
    this.elsewhere.set(syncUri, found);
    for (const uri of new Set([...(before?.keys() ?? []), ...found.keys()])) this.send(uri);
  }

  /**
   * Publishes a file's diagnostics: its own (when open) and those projects' validations found in it
   * (while its text is the one they read), each once, at most `maxDiagnostics` and a note of the rest.
   */
  private send(uri: string): void {
    if (this.shutDown) return;
    const document = this.documents.get(uri);
    const found: Diagnostic[] = [];
    for (const projects of this.elsewhere.values()) {
      const e = projects.get(uri);
      if (e && (!document || document.getText() === e.text)) found.push(...e.diagnostics);
    }
    const all = mergeFindings(this.own.get(uri) ?? [], found);
    // The worker sends at most `maxDiagnostics` problems of a file and counts the rest.
    const more = Math.max(0, all.length - LIMITS.maxDiagnostics) + (this.more.get(uri) ?? 0);
    const diagnostics = more > 0 ? [...all.slice(0, LIMITS.maxDiagnostics), moreNote(document, more)] : all;
    void this.connection.sendDiagnostics({
      uri,
      ...(document ? { version: document.version } : {}),
      diagnostics,
    });
  }
}

function moreNote(document: TextDocument | undefined, more: number): Diagnostic {
  return {
    range: document
      ? firstLine(document)
      : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: lsp.DiagnosticSeverity.Information,
    code: 'LSP_MORE',
    source: 'pantograph',
    message: `... and ${more} more problems not shown (the language server shows ${LIMITS.maxDiagnostics} per file; \`pantograph validate\` lists them all)`,
  };
}

function tooLarge(document: TextDocument, chars: number): Diagnostic {
  const millions = (n: number) => (n / 1_000_000).toFixed(1);
  return {
    range: firstLine(document),
    severity: lsp.DiagnosticSeverity.Warning,
    code: 'LSP_TOO_LARGE',
    source: 'pantograph',
    message: `not checked: the file has ${millions(chars)} million characters, over the language server's limit of ${millions(LIMITS.maxChars)} million (the command line checks it: \`pantograph epp validate\`, \`pantograph validate\`)`,
  };
}

function firstLine(document: TextDocument): Range {
  const text = document.getText();
  const eol = text.search(/\r?\n|\r/);
  const end = document.positionAt(eol < 0 ? Math.min(text.length, 200) : Math.min(eol, 200));
  return { start: { line: 0, character: 0 }, end };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A problem of a file that is not an open document, in the text it was found in. */
function toDiagnosticIn(text: string, p: Problem): Diagnostic {
  const document = TextDocument.create('file:///x', 'text', 0, text);
  return toDiagnostic(document, fromProblem(p, text));
}

/** The answer to a request the client cancelled, as the specification asks (LSPErrorCodes.RequestCancelled). */
function cancelledError(): Error {
  return new lsp.ResponseError(lsp.LSPErrorCodes.RequestCancelled, 'the request was cancelled');
}

/** `work`'s result, or a rejection as soon as the request is cancelled (the work goes on, unheard). */
function untilCancelled<R>(work: Promise<R>, token: CancellationToken): Promise<R> {
  let listener: { dispose(): void } | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    listener = token.onCancellationRequested(() => reject(cancelledError()));
  });
  return Promise.race([work, cancelled]).finally(() => listener?.dispose());
}
