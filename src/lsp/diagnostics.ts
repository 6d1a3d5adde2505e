/**
 * Problems as LSP diagnostics. The message is the CLI's; its hint (often the did-you-mean) follows on a
 * line of its own, since a diagnostic has no field for it and editors show the whole message.
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import type { SpanProblem } from '../index.js';
import { lsp, type TextDocument } from './protocol.js';

export function toDiagnostic(document: TextDocument, p: SpanProblem): Diagnostic {
  return {
    range: { start: document.positionAt(p.start), end: document.positionAt(Math.max(p.end, p.start)) },
    severity: p.severity === 'error' ? lsp.DiagnosticSeverity.Error : lsp.DiagnosticSeverity.Warning,
    code: p.code,
    source: 'pantograph',
    message: p.hint !== undefined ? `${p.message}\n${p.hint}` : p.message,
  };
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A problem for a document that is no Unicode text: a JSON string may carry a lone surrogate (`\udc80`),
 * which no UTF-8 file can hold; the file could not be saved as it is.
 */
export function encodingProblem(text: string): SpanProblem | undefined {
  const match = LONE_SURROGATE.exec(text);
  if (!match) return undefined;
  return {
    severity: 'error',
    code: 'EPP_ENCODING',
    message: 'the document is not valid Unicode text: it holds a lone surrogate, which UTF-8 cannot encode',
    hint: 'the editor sent characters no file can hold; reopen the file',
    start: match.index,
    end: match.index + 1,
  };
}
