/**
 * The language server's packages, loaded with `require` rather than imported: the command line's bundle
 * (scripts/bundle-cli.mjs) then leaves them outside, so that no other command pays for their size, and
 * they load only when `pantograph lsp` runs. Types come from the packages themselves.
 */
import { createRequire } from 'node:module';
import type * as Server from 'vscode-languageserver/node';
import type * as Documents from 'vscode-languageserver-textdocument';

const require = createRequire(import.meta.url);

export const lsp = require('vscode-languageserver/node') as typeof Server;
export const { TextDocument } = require('vscode-languageserver-textdocument') as typeof Documents;
export type TextDocument = Documents.TextDocument;
