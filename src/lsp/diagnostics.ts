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

/**
 * A file's own diagnostics and those projects' validations found in it (render errors), each finding once,
 * as `validate` lists them: the same code at the same place is one finding, whatever its range (a
 * validation's problem has a line and column only, so its range ends at the word there), and an unknown
 * variable rendering failed on is not warned of again by the analysis (`ANALYSIS_UNKNOWN_VARIABLE`).
 */
export function mergeFindings(own: readonly Diagnostic[], found: readonly Diagnostic[]): Diagnostic[] {
  const place = (d: Diagnostic) => `${d.range.start.line}:${d.range.start.character}`;
  const key = (d: Diagnostic) => `${d.code}|${place(d)}`;
  const failed = new Set(found.filter((d) => d.code === 'EPP_UNKNOWN_VARIABLE').map(place));
  const all = own.filter((d) => !(d.code === 'ANALYSIS_UNKNOWN_VARIABLE' && failed.has(place(d))));
  const seen = new Set(all.map(key));
  for (const d of found) {
    if (seen.has(key(d))) continue;
    seen.add(key(d));
    all.push(d);
  }
  return all;
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
