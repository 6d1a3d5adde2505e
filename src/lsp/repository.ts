/**
 * A template repository's own files: `template.json` against the published template schema, and
 * `template_schema.json` as a JSON Schema Pantograph takes (draft and keywords), both as the engine
 * checks them when it loads the template.
 */
import { basename } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver/node';
import { checkTemplateManifestText, checkTemplateSchemaText } from '../index.js';
import { encodingProblem, toDiagnostic } from './diagnostics.js';
import { pathOf } from './epp.js';
import type { TextDocument } from './protocol.js';

export function isTemplateFile(uri: string): boolean {
  const name = basename(pathOf(uri));
  return name === 'template.json' || name === 'template_schema.json';
}

export function templateFileDiagnostics(document: TextDocument): Diagnostic[] {
  const text = document.getText();
  const file = pathOf(document.uri);
  const bad = encodingProblem(text);
  const problems = bad
    ? [bad]
    : basename(file) === 'template.json'
      ? checkTemplateManifestText(text, file)
      : checkTemplateSchemaText(text, file);
  return problems.map((p) => toDiagnostic(document, p));
}
