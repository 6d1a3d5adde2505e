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

/** One question to the oracle: `pdk new <kind> <name>` in module `module`, with PDK's `options`. */
export type PdkNewRequest = [kind: string, module: string, name: string, options?: Record<string, unknown>];

/** The oracle's answers in this test file, by request (Ruby is deterministic: one answer per question). */
const answers = new Map<string, Record<string, string>>();
const keyOf = ([kind, module, name, options = {}]: PdkNewRequest) =>
  JSON.stringify([kind, module, name, options]);

/**
 * Asks the oracle about every request not yet answered, in one Ruby process (a Ruby start costs more
 * than its answer): a test file calls this in `beforeAll` with the objects its cases compare.
 */
export function pdkNewAll(requests: readonly PdkNewRequest[]): void {
  const missing = [...new Map(requests.map((r) => [keyOf(r), r])).entries()].filter(([k]) => !answers.has(k));
  if (missing.length === 0) return;
  const r = spawnSync('ruby', [oracle, '--many'], {
    encoding: 'utf8',
    input: JSON.stringify(
      missing.map(([, [kind, module, name, options = {}]]) => [kind, module, name, options]),
    ),
  });
  if (r.status !== 0) throw new Error(`ruby: ${r.stderr}`);
  const all = JSON.parse(r.stdout) as Record<string, string>[];
  for (const [i, [k]] of missing.entries())
    answers.set(k, asPdkPackagesWrite(all[i] as Record<string, string>));
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
  const request: PdkNewRequest = [kind, module, name, options];
  pdkNewAll([request]);
  return { ...(answers.get(keyOf(request)) as Record<string, string>) };
}

/** The oracle's files as PDK's packages write them (their json gem, see `jsonBefore28`). */
function asPdkPackagesWrite(files: Record<string, string>): Record<string, string> {
  if (!jsonBefore28()) {
    for (const [path, text] of Object.entries(files)) {
      if (path.endsWith('.json')) files[path] = text.replace(/^( *)(".*": )\{\}/gm, '$1$2{\n$1}');
    }
  }
  return files;
}
