#!/usr/bin/env node
/**
 * Checks every template of real module checkouts as the language server checks an open file
 * (`checkEppText` with the module's path, src/engine/module-context.ts) and counts the diagnostics by code,
 * with examples: what a module's author would see in the editor. Each folder of DIR is one checkout
 * (`git clone` of a module; its name need not be the module's).
 *
 *   npm run build && node scripts/epp-corpus/check-as-editor.mjs DIR [--no-module]
 *
 * `--no-module` checks without the module path, as the server did before it knew modules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const lib = await import(join(root, 'dist/index.js'));
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/epp-corpus/check-as-editor.mjs DIR [--no-module]');
  process.exit(2);
}
const withModule = !process.argv.includes('--no-module');
const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};
const examples = new Map();
let files = 0;
for (const checkout of readdirSync(dir).sort()) {
  const templates = join(dir, checkout, 'templates');
  let names;
  try {
    names = readdirSync(templates, { recursive: true, encoding: 'utf8' });
  } catch {
    continue;
  }
  for (const name of names.filter((n) => n.endsWith('.epp')).sort()) {
    const file = join(templates, name);
    files++;
    const module = withModule ? lib.moduleContextOf(file, read) : undefined;
    for (const p of lib.checkEppText(read(file), file, undefined, module?.modulePath).problems) {
      if (!examples.has(p.code)) examples.set(p.code, []);
      examples.get(p.code).push(`${checkout}/templates/${name}: ${p.message.split('\n')[0]}`);
    }
  }
}
console.log(`${files} templates checked${withModule ? ' with their module path' : ''}`);
for (const [code, list] of examples) {
  console.log(`${code}: ${list.length}`);
  for (const line of [...new Set(list)].slice(0, 5)) console.log(`  ${line}`);
}
