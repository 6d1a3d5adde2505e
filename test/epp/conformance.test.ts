/**
 * The EPP conformance suite (expected output produced by real Puppet 7), run through the library API.
 * The same cases run through the CLI in `npm run conformance`. Each case renders four times, with Puppet
 * values and with plain ones: a template's first two renders are interpreted, later ones run its compiled
 * code (src/epp/interpreter/); all must match.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { EppError, renderEpp } from '../../src/epp/index.js';
import { fromJs } from '../../src/epp/runtime/convert.js';
import { float } from '../../src/epp/runtime/values.js';

const suite = resolve(
  process.env.EPP_CONFORMANCE_DIR ?? resolve(import.meta.dirname, '../../../shared/epp-conformance'),
);
const casesDir = join(suite, 'cases');
/** The project's own cases in the same format (test/conformance/README.md). */
const projectDir = resolve(import.meta.dirname, '../conformance');
const projectCaseDirs = readdirSync(projectDir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name.includes('cases'))
  .map((d) => join(projectDir, d.name));

/** YAML data (integers as bigints) with its numbers made Floats, objects and arrays left plain. */
function plainWithFloats(data: unknown): unknown {
  if (typeof data === 'number') return float(data);
  if (Array.isArray(data)) return data.map(plainWithFloats);
  if (data !== null && typeof data === 'object') {
    return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, plainWithFloats(v)]));
  }
  return data;
}

describe('EPP conformance (Puppet 7 output)', () => {
  it('finds the suite', () => {
    expect(existsSync(casesDir), `conformance cases not found at ${casesDir}; set EPP_CONFORMANCE_DIR`).toBe(
      true,
    );
  });
  const dirs = [casesDir, ...projectCaseDirs]
    .filter((d) => existsSync(d))
    .flatMap((d) =>
      readdirSync(d)
        .sort()
        .map((name) => join(d, name)),
    );
  it.each(
    dirs.map((dir) => [dir.slice(dir.lastIndexOf('/', dir.lastIndexOf('/') - 1) + 1), dir]),
  )('%s', (_name, dir) => {
    const source = readFileSync(join(dir, 'template.epp'), 'utf8');
    const valuesText = readFileSync(join(dir, 'values.json'), 'utf8');
    const data = parseDocument(valuesText, { intAsBigInt: true }).toJS();
    const values = fromJs(data, { numbers: 'float' }) as Map<string, never>;
    // The same values as a library user passes them: plain objects and arrays (rendered as RecordHashes,
    // the caller's arrays used as they are), numbers as Floats made by float() to keep `1.0` a Float.
    const plainValues = plainWithFloats(data) as Record<string, unknown>;
    const expectedFile = join(dir, 'expected.txt');
    let given: Map<string, never> | Record<string, unknown> = values;
    const render = () => renderEpp(source, given, { file: 'template.epp', baseDir: dir });
    for (const tier of ['interpreted', 'plain values, interpreted', 'compiled', 'plain values, compiled']) {
      given = tier.startsWith('plain') ? plainValues : values;
      if (existsSync(expectedFile)) {
        const expected = readFileSync(expectedFile, 'utf8');
        const text = render();
        // `puppet epp render` prints with Ruby's puts: a newline is added unless the text ends with one.
        expect(text.endsWith('\n') ? text : `${text}\n`, tier).toBe(expected);
      } else {
        expect(render, tier).toThrow(EppError);
      }
    }
  });
});
