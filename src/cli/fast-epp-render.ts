/**
 * `pantograph epp render` without loading commander: the one command that is run once per template in
 * scripts and CI, where start-up time is most of the run. The arguments are read with Node's own
 * `parseArgs`; anything it does not recognise (help, a typo, a global option) returns undefined and
 * the full command line handles it, with its usual messages.
 */
import { parseArgs } from 'node:util';
import { reportError } from './errors.js';
import { processIo } from './io.js';

export async function fastEppRender(args: readonly string[]): Promise<number | undefined> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  const io = await processIo(undefined);
  try {
    const { eppRender } = await import('./commands/epp.js');
    return await eppRender(io, { format: 'text' }, positionals, {
      ...(values.values !== undefined ? { values: values.values } : {}),
      ...(values['values-file'] !== undefined ? { valuesFile: values['values-file'] } : {}),
      ...(values.inline !== undefined ? { inline: values.inline } : {}),
      ...(values.delimiters !== undefined ? { delimiters: values.delimiters } : {}),
      ...(values['base-dir'] !== undefined ? { baseDir: values['base-dir'] } : {}),
      ...(values.modulepath !== undefined ? { modulepath: values.modulepath } : {}),
      ...(values.facts !== undefined ? { facts: values.facts } : {}),
      strict: values['no-strict'] !== true,
      header: values['no-header'] !== true,
    });
  } catch (e) {
    return reportError(e, io);
  }
}

function parse(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    strict: true,
    options: {
      values: { type: 'string' },
      'values-file': { type: 'string' },
      inline: { type: 'string', short: 'e' },
      'no-strict': { type: 'boolean' },
      'no-header': { type: 'boolean' },
      delimiters: { type: 'string' },
      'base-dir': { type: 'string' },
      modulepath: { type: 'string' },
      facts: { type: 'string' },
    },
  });
}

/**
 * Reads values files and renders the library's warm-up templates once each (src/epp/warm-up.ts: what
 * templates commonly use, through the interpreter, as a template's first render runs): run once at build
 * time so that the V8 code cache made then holds their compiled code (see scripts/bundle-cli.mjs). A
 * smaller warm-up (one small template) made a smaller cache, but a one-shot render then compiled the rest
 * of the parser and interpreter from source: ~5 ms more of a render of the bench's template (session 12).
 */
export async function warmUp(): Promise<void> {
  const { warmUpRenders } = await import('../epp/warm-up.js');
  // A values file is YAML most of the time: its readers' code is in the cache too (~40 ms of a run
  // otherwise, compiling the yaml package's functions on first use), the simple one's and the full one's.
  const { simpleYamlValues } = await import('../engine/yaml-values.js');
  simpleYamlValues(
    '# values\nname: x\nport: 8443\nratio: 2.5\non: true\nnone: ~\nlist:\n  - a\n  - b: "c"\n    d: \'e\'\nmap:\n  k: v # c\n',
  );
  const { fullYamlValues } = await import('../engine/yaml-values-full.js');
  fullYamlValues(
    'name: x\nport: 8443\nratio: 2.5\non: true\nnone: ~\nlist:\n  - a\n  - { b: "c", d: [1, 2] }\nmap:\n  k: \'v\'\n',
    'warm-up.yaml',
  );
  const { parseJsonValues } = await import('../epp/json-values.js');
  parseJsonValues(
    '{"name": "x", "port": 8443, "ratio": 2.5, "list": ["a", {"b": true, "c": null}]}',
    'warm-up.json',
  );
  // One render of each warm-up template: the interpreted tier, which a one-shot render runs.
  warmUpRenders(1);
}
