/**
 * scripts/conformance-batch.mjs, which runs the project's conformance cases through the built CLI's
 * `epp render` many to a process (in CI, `npm run conformance`): it must fail what the suite's runner
 * fails, pass what it passes, and give a case that ends its process that exit, as a process of its own would.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const script = resolve(import.meta.dirname, '../../scripts/conformance-batch.mjs');
const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function batch(...args: string[]) {
  const run = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trim().split('\n') };
}

describe('the conformance cases, many to a process', () => {
  it("passes a case as the suite's runner does, and fails every kind of miss, naming the case", () => {
    const cases = tempTree({
      // Puppet prints with puts: the newline the template lacks is added (the CLI does the same).
      'a_renders/template.epp': '<%- | Integer $n | -%>n is <%= $n + 1 %>',
      'a_renders/values.json': '{"n": 41}',
      'a_renders/expected.txt': 'n is 42\n',
      'b_differs/template.epp': '<%= "x" %>\n',
      'b_differs/values.json': '{}',
      'b_differs/expected.txt': 'y\n',
      'error_fails/template.epp': '<%= 1 + %>',
      'error_fails/values.json': '{}',
      'error_fails/expected_error.txt': "Error: Syntax error at '%>'",
      'error_renders/template.epp': 'fine\n',
      'error_renders/values.json': '{}',
      'error_renders/expected_error.txt': 'Error: something',
      'no_expectation/template.epp': 'x\n',
      'no_expectation/values.json': '{}',
      // Values reach the template as the Puppet literal the suite's runner gives --values.
      'quotes/template.epp': '<%- | String $s, Float $f | -%><%= $s %> <%= $f %>\n',
      'quotes/values.json': '{"s": "it\'s \\\\ here", "f": 1.0}',
      'quotes/expected.txt': "it's \\ here 1.0\n",
    });
    // Both ways the suite gives values: the literal to --values, and values.json to --values-file.
    for (const way of [[], ['--values-file']]) {
      const run = batch('-j', '2', ...way, '--bin', bin, cases);
      expect(run.lines.filter((l) => l.startsWith('FAIL')).sort(), way.join()).toEqual([
        'FAIL b_differs: stdout differs at byte 0: expected "y\\n" got "x\\n"',
        'FAIL error_renders: expected an error but exit 0, stdout "fine\\n"',
        'FAIL no_expectation: case has no expected.txt nor expected_error.txt',
      ]);
      expect(run.lines.at(-1)).toBe('3 passed, 3 failed');
      expect(run.status).toBe(1);
    }
  });

  it('gives a case that ends its process that exit, fails one that hangs, and goes on in a new process', () => {
    // A CLI whose `epp render` exits at once on one template and never ends on another.
    const fake = tempTree({
      'load-bundle.cjs': `const real = require(${JSON.stringify(resolve(bin, '../load-bundle.cjs'))});
const { readFileSync, writeSync } = require('node:fs');
module.exports = { ...real, async loadFastPath() {
  const fast = await real.loadFastPath();
  return { async fastEppRender(args) {
    const text = readFileSync(args[0], 'utf8');
    if (text.startsWith('exit')) { writeSync(1, 'half'); process.exit(3); }
    if (text.startsWith('hang')) await new Promise(() => setInterval(() => {}, 1000));
    return fast.fastEppRender(args);
  } };
} };
`,
    });
    const cases = tempTree({
      'a_first/template.epp': 'one\n',
      'a_first/expected.txt': 'one\n',
      'b_exits_as_an_error/template.epp': 'exit\n',
      'b_exits_as_an_error/expected_error.txt': 'Error: x',
      'c_exits_instead_of_rendering/template.epp': 'exit\n',
      'c_exits_instead_of_rendering/expected.txt': 'exit\n',
      'd_hangs/template.epp': 'hang\n',
      'd_hangs/expected.txt': 'hang\n',
      'e_after/template.epp': 'after\n',
      'e_after/expected.txt': 'after\n',
    });
    for (const name of [
      'a_first',
      'b_exits_as_an_error',
      'c_exits_instead_of_rendering',
      'd_hangs',
      'e_after',
    ]) {
      writeFileSync(join(cases, name, 'values.json'), '{}');
    }
    const run = batch('-j', '1', '--timeout', '2', '--bin', join(fake, 'bin.cjs'), cases);
    expect(run.lines).toEqual([
      'FAIL c_exits_instead_of_rendering: exit 3',
      'FAIL d_hangs: timed out after 2s',
      '3 passed, 2 failed',
    ]);
    expect(run.status).toBe(1);
  });
});
