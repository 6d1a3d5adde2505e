#!/usr/bin/env node
/**
 * Writes src/epp/runtime/types/stdlib-aliases.ts: the type aliases of puppetlabs-stdlib (`Stdlib::Port`,
 * `Stdlib::Absolutepath`, ...), each as its Puppet source text, which the EPP runtime resolves on first use.
 * Real templates declare parameters with them (issue 12).
 *
 *   node scripts/stdlib-types.mjs STDLIB_GIT_DIR     (a clone or the tool library's fetch of puppetlabs-stdlib)
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const repo = resolve(process.argv[2] ?? '/work/.mirror/puppetlabs+puppetlabs-stdlib/repo');
const git = (...args) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
const version = JSON.parse(git('show', 'HEAD:metadata.json')).version;
const aliases = {};
for (const file of git('ls-tree', '-r', '--name-only', 'HEAD', 'types')
  .split('\n')
  .filter((f) => f.endsWith('.pp'))) {
  const code = git('show', `HEAD:${file}`)
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n');
  const m = /type\s+([A-Z][\w:]*)\s*=\s*([\s\S]*)$/.exec(code);
  if (m) aliases[m[1]] = m[2].trim().replace(/\s+/g, ' ').replace(/,\s*]/g, ']');
}
const body = Object.entries(aliases)
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([name, text]) => `  [${JSON.stringify(name)}, ${JSON.stringify(text)}],`)
  .join('\n');
writeFileSync(
  resolve(import.meta.dirname, '../src/epp/runtime/types/stdlib-aliases.ts'),
  `/**
 * The type aliases of puppetlabs-stdlib ${version} (Apache-2.0, https://github.com/puppetlabs/puppetlabs-stdlib,
 * types/**.pp), as their Puppet source: resolved by the EPP runtime on first use (see names.ts). Generated
 * by scripts/stdlib-types.mjs; do not edit.
 */
export const STDLIB_TYPE_ALIASES: ReadonlyMap<string, string> = new Map([
${body}
]);
`,
);
console.log(`${Object.keys(aliases).length} aliases of puppetlabs-stdlib ${version}`);
