/**
 * A template repository's own files: `template.json` against the published template schema, and
 * `template_schema.json` as a JSON Schema Pantograph takes (draft and keywords), both as the engine
 * checks them when it loads the template (the check runs in check-worker.ts).
 */
import { basename } from 'node:path';
import { pathOf } from './epp.js';

export function isTemplateFile(uri: string): boolean {
  const name = basename(pathOf(uri));
  return name === 'template.json' || name === 'template_schema.json';
}
