/**
 * `pantograph lsp`: the language server for EPP templates, template repositories and `.sync.yml`, over
 * standard input and output (src/lsp/). It serves until the editor closes the stream or sends `exit`.
 */
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';

export interface LspFlags {
  readonly trust?: boolean;
}

export async function lsp(_io: Io, _global: GlobalOptions, flags: LspFlags): Promise<number> {
  const { startServer } = await import('../../lsp/server.js');
  await startServer(process.stdin, process.stdout, { trust: flags.trust === true });
  // The editor closed the stream without `exit`: end now, or the protocol library's watch on the
  // editor's process (a timer) would keep this one alive after its editor is gone from the pipe.
  process.exit(0);
}
