/**
 * The corpus comparison, shared by scripts/epp-corpus/compare.mjs and test/epp/corpus.test.ts: each case
 * of test/fixtures/epp-corpus/<module>/<template>/ rendered with its values.json by the given library
 * (`renderEpp`, `fromJs`), against Puppet's expected.txt or expected_error.txt; and the same with
 * values-2.json against expected-2.txt or expected_error-2.txt where the case has a second variant.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseDocument } from 'yaml';

export const CORPUS = resolve(import.meta.dirname, '../../test/fixtures/epp-corpus');

export function corpusCases() {
  if (!existsSync(CORPUS)) return [];
  const cases = [];
  for (const module of readdirSync(CORPUS).sort()) {
    const moduleDir = join(CORPUS, module);
    if (!statSync(moduleDir).isDirectory()) continue;
    for (const name of readdirSync(moduleDir).sort()) {
      const dir = join(moduleDir, name);
      if (!statSync(dir).isDirectory()) continue;
      // One case per values file: values.json, and values-2.json where build.mjs made a second variant.
      for (const file of readdirSync(dir).sort()) {
        const suffix = /^values(.*)\.json$/.exec(file)?.[1];
        if (suffix === undefined) continue;
        cases.push({ name: `${module}/${name}${suffix ? ` (values${suffix})` : ''}`, dir, suffix });
      }
    }
  }
  return cases;
}

/** One case: `identical`, `both-error`, `differing`, `pantograph-error` or `puppet-error`, with a detail. */
export function compareCase(lib, { name, dir, suffix }) {
  const source = readFileSync(join(dir, 'template.epp'), 'utf8');
  const values = lib.fromJs(
    parseDocument(readFileSync(join(dir, `values${suffix}.json`), 'utf8'), { intAsBigInt: true }).toJS(),
    {
      numbers: 'float',
    },
  );
  const expectedFile = join(dir, `expected${suffix}.txt`);
  const puppetOk = existsSync(expectedFile);
  let text;
  let error;
  try {
    text = lib.renderEpp(source, values, {
      file: 'template.epp',
      baseDir: dir,
      strict: false,
      modulePath: modulePathOf(dir),
      topScope: factsScope(lib),
    });
  } catch (e) {
    error = e;
  }
  if (!puppetOk) {
    const puppet = readFileSync(join(dir, `expected_error${suffix}.txt`), 'utf8').trim();
    return error
      ? { name, outcome: 'both-error', detail: puppet, ours: error.message }
      : { name, outcome: 'puppet-error', detail: puppet };
  }
  if (error)
    return { name, outcome: 'pantograph-error', detail: `${error.code ?? ''} ${error.message}`.trim() };
  const expected = readFileSync(expectedFile, 'utf8');
  const printed = text.endsWith('\n') ? text : `${text}\n`;
  if (printed === expected) return { name, outcome: 'identical', detail: '' };
  let i = 0;
  while (i < printed.length && printed[i] === expected[i]) i++;
  const line = expected.slice(0, i).split('\n').length;
  return {
    name,
    outcome: 'differing',
    detail: `line ${line}: got ${JSON.stringify(printed.slice(i, i + 30))}, Puppet ${JSON.stringify(expected.slice(i, i + 30))}`,
  };
}

/** The facts Puppet rendered with (scripts/epp-corpus/facts.yaml): `$facts`, and each a top-scope variable. */
let facts;
function factsScope(lib) {
  if (!facts) {
    const text = readFileSync(join(import.meta.dirname, 'facts.yaml'), 'utf8');
    const hash = lib.fromJs(parseDocument(text, { intAsBigInt: true }).toJS(), { numbers: 'float' });
    facts = new Map(hash);
    facts.set('facts', hash);
  }
  return facts;
}

/** The module path of a case: its module's type aliases (`<module>/modules/<name>/types/`), one array per module. */
const modulePaths = new Map();
function modulePathOf(caseDir) {
  const modules = join(caseDir, '..', 'modules');
  if (!modulePaths.has(modules)) modulePaths.set(modules, existsSync(modules) ? [modules] : undefined);
  return modulePaths.get(modules);
}

export async function compareCorpus(lib) {
  const results = corpusCases().map((c) => compareCase(lib, c));
  const count = (o) => results.filter((r) => r.outcome === o).length;
  const agree = count('identical') + count('both-error');
  const figure =
    `EPP corpus: ${results.length} renders of real templates: ${agree} identical (${count('both-error')} of them errors in both), ` +
    `${count('differing')} differing, ${count('pantograph-error')} Pantograph error where Puppet rendered, ` +
    `${count('puppet-error')} Puppet error where Pantograph rendered`;
  return { results, figure };
}
