/**
 * The oracle of `pantograph new`: what `pdk new <kind> <name>` writes, computed by PDK's own generator code
 * run by the system Ruby over pdk-templates' ERB object templates (test/fixtures/pdk-object-templates).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const oracle = resolve(import.meta.dirname, '../fixtures/pdk-object-templates/pdk-render.rb');

/** Ruby's json gem writes an empty object on one line from 2.8 on; PDK's packages have an older one. */
let rubyJsonBefore28: boolean | undefined;
function jsonBefore28(): boolean {
  if (rubyJsonBefore28 === undefined) {
    const v = spawnSync('ruby', ['-rjson', '-e', 'print JSON::VERSION'], { encoding: 'utf8' }).stdout;
    const [major = 0, minor = 0] = v.split('.').map(Number);
    rubyJsonBefore28 = major < 2 || (major === 2 && minor < 8);
  }
  return rubyJsonBefore28;
}

/**
 * What `pdk new <kind> <name>` writes in module `module` (the name without its author): path -> text.
 * `options` as PDK's: `type` (function), `description` (task), `spec_only` (what `pdk new test` asks).
 */
export function pdkNew(
  kind: string,
  module: string,
  name: string,
  options: Record<string, unknown> = {},
): Record<string, string> {
  const r = spawnSync('ruby', [oracle, kind, module, name, JSON.stringify(options)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ruby: ${r.stderr}`);
  const files = JSON.parse(r.stdout) as Record<string, string>;
  if (!jsonBefore28()) {
    for (const [path, text] of Object.entries(files)) {
      if (path.endsWith('.json')) files[path] = text.replace(/^( *)(".*": )\{\}/gm, '$1$2{\n$1}');
    }
  }
  return files;
}
