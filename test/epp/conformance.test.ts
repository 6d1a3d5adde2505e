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
// @ts-expect-error: a plain ES module of the repository's scripts (scripts/error-parity.mjs), no types.
import { normalisePuppet, sameError } from '../../scripts/error-parity.mjs';
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

/**
 * Error cases whose message or position is known to differ from Puppet's expected_error.txt, each with
 * why (test/conformance/known-error-differences.json). Every other error case must fail with Puppet's
 * message at Puppet's position (as scripts/error-parity.mjs compares them); a listed case that comes to
 * match must leave the list.
 */
const knownDifferences = JSON.parse(
  readFileSync(join(projectDir, 'known-error-differences.json'), 'utf8'),
) as Record<string, string>;

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
        checkErrorWords(dir, render, tier);
      }
    }
  });
});

/** The error's words and position against Puppet's (see `knownDifferences`). */
function checkErrorWords(dir: string, render: () => string, tier: string): void {
  let error: EppError | undefined;
  try {
    render();
  } catch (e) {
    error = e as EppError;
  }
  const name = dir.slice(dir.lastIndexOf('/') + 1);
  const puppet = normalisePuppet(readFileSync(join(dir, 'expected_error.txt'), 'utf8')) as {
    pos: string;
    message: string;
  };
  const ours = {
    pos: error?.line === undefined ? '' : `${error.line}:${error.column}`,
    message: error?.message.split('\n')[0] ?? '',
  };
  const same = sameError(puppet, ours) as boolean;
  if (name in knownDifferences) {
    expect(same, `${tier}: ${name} now matches Puppet: remove it from known-error-differences.json`).toBe(
      false,
    );
  } else {
    const words = (e: { pos: string; message: string }) => `${e.pos || '-'} ${e.message}`;
    expect(same, `${tier}: ours ${words(ours)}, Puppet's ${words(puppet)}`).toBe(true);
  }
}
