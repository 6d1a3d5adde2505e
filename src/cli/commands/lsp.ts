/**
 * `pantograph lsp`: the language server for EPP templates, template repositories and `.sync.yml`, over
 * standard input and output (src/lsp/). It serves until the editor closes the stream or sends `exit`.
 */
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';

export async function lsp(_io: Io, _global: GlobalOptions): Promise<number> {
  const { startServer } = await import('../../lsp/server.js');
  await startServer(process.stdin, process.stdout);
  return 0;
}
