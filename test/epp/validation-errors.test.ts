/**
 * A template with several errors of Puppet's validation (definitions inside a tag, illegal assignments,
 * statements that do nothing, duplicate defaults): `epp render` prints each, in Puppet's order and words
 * at its file:line:col, then "Language validation logged N errors. Giving up", as `puppet epp render`
 * does; the library's error is the first and carries them all. Expected: what `puppet epp render`
 * (Puppet 7.23) printed on stderr for each template (its "Try 'puppet help epp render'" line left out).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EppSyntaxError, findSyntaxErrors, parseEpp } from '../../src/epp/index.js';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

const BIN = join(import.meta.dirname, '../../dist/cli/bin.cjs');

/** [template (t.epp), Puppet's stderr lines] */
const PUPPET: readonly (readonly [string, readonly string[]])[] = [
  [
    '<% class foo {} %>',
    [
      'Error: epp(): Invalid EPP: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 4)',
    ],
  ],
  [
    '<% node default {} %>',
    [
      'Error: epp(): Invalid EPP: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 4)',
    ],
  ],
  [
    '<% class foo {} %>x<% 1 %>y<% 2 %>',
    [
      'Error: This Literal Integer has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form) (file: t.epp, line: 1, column: 23)',
      'Error: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 4)',
      'Error: epp(): Invalid EPP: Language validation logged 2 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% if true { 1; 2; $0 = 3; 4 } %><% 5 %>',
    [
      'Error: This Literal Integer has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form) (file: t.epp, line: 1, column: 37)',
      'Error: This Literal Integer has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form) (file: t.epp, line: 1, column: 14)',
      "Error: Illegal attempt to assign to the numeric match result variable '$0'. Numeric variables are not assignable (file: t.epp, line: 1, column: 20)",
      'Error: epp(): Invalid EPP: Language validation logged 3 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% $x = {a=>1, a=>2} %><% 1 = 2 %><% 3 = 4 %>',
    [
      "Warning: The key 'a' is declared more than once (file: t.epp, line: 1, column: 17)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 27)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 38)",
      'Error: epp(): Invalid EPP: Language validation logged 2 errors, and 1 warnings. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% [1, $2, $a::b] = [1,2,3] %><% $::c = 1 %>',
    [
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 5)",
      "Error: Illegal attempt to assign to the numeric match result variable '$2'. Numeric variables are not assignable (file: t.epp, line: 1, column: 8)",
      "Error: Illegal attempt to assign to 'a::b'. Cannot assign to variables in other namespaces (file: t.epp, line: 1, column: 12)",
      "Error: Illegal attempt to assign to '::c'. Cannot assign to variables in other namespaces (file: t.epp, line: 1, column: 34)",
      'Error: epp(): Invalid EPP: Language validation logged 4 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% 1=1 %><% 2=1 %><% 3=1 %><% 4=1 %><% 5=1 %><% 6=1 %><% 7=1 %><% 8=1 %><% 9=1 %><% 10=1 %><% 11=1 %><% 12=1 %>',
    [
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 4)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 13)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 22)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 31)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 40)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 49)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 58)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 67)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 76)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 85)",
      'Error: epp(): Invalid EPP: Language validation logged 12 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% case 1 { default: {} default: {} 2, default: {} } %><% $0 = 1 %>',
    [
      "Error: This 'case' statement has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form) (file: t.epp, line: 1, column: 4)",
      "Error: This 'case' statement already has a 'default' entry - this is a duplicate (file: t.epp, line: 1, column: 25)",
      "Error: This 'case' statement already has a 'default' entry - this is a duplicate (file: t.epp, line: 1, column: 40)",
      "Error: Illegal attempt to assign to the numeric match result variable '$0'. Numeric variables are not assignable (file: t.epp, line: 1, column: 59)",
      'Error: epp(): Invalid EPP: Language validation logged 4 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% $x = 1 ? { default => 1, default => 2, default => 3 } %><% $a[1] = 2 %>',
    [
      "Error: This Selector Expression already has a 'default' entry - this is a duplicate (file: t.epp, line: 1, column: 29)",
      'Error: Illegal attempt to assign via [index/key]. Not an assignable reference (file: t.epp, line: 1, column: 63)',
      'Error: epp(): Invalid EPP: Language validation logged 2 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% define foo($x = {a => 1}) { $1 = 2 } %><% node "a", /b/ { 3 = 4 } %>',
    [
      'Error: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 4)',
      "Error: Illegal attempt to assign to the numeric match result variable '$1'. Numeric variables are not assignable (file: t.epp, line: 1, column: 32)",
      'Error: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 46)',
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 62)",
      'Error: epp(): Invalid EPP: Language validation logged 4 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% define a { 1 } %><% node default { 1; 2 } %><% class b { } %>',
    [
      'Error: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 4)',
      "Error: This Literal Integer has no effect. A 'define' expression can not end with a value-producing expression without other effect (file: t.epp, line: 1, column: 15)",
      'Error: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 24)',
      'Error: This Literal Integer has no effect. A Node Definition can not end with a value-producing expression without other effect (file: t.epp, line: 1, column: 42)',
      'Error: This Literal Integer has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form) (file: t.epp, line: 1, column: 39)',
      'Error: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 51)',
      'Error: epp(): Invalid EPP: Language validation logged 6 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    "<% class a { file { '/x': ensure => present } } %><% $0 = 1 %>",
    [
      'Error: Classes, definitions, and nodes may only appear at toplevel or inside other classes (file: t.epp, line: 1, column: 4)',
      "Error: Illegal attempt to assign to the numeric match result variable '$0'. Numeric variables are not assignable (file: t.epp, line: 1, column: 54)",
      'Error: epp(): Invalid EPP: Language validation logged 2 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% $x = [1].map |$y| { 1; 2 } %><% $x = 1 = 2 %><% 3 = $x %>',
    [
      'Error: This Literal Integer has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form) (file: t.epp, line: 1, column: 24)',
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 41)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 52)",
      'Error: epp(): Invalid EPP: Language validation logged 3 errors. Giving up (file: t.epp)',
    ],
  ],
  [
    '<% $a = 1 %><% $a = 2 %><% text(1) %><% 3 = 4 %>',
    [
      "Error: epp(): Invalid EPP: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 41)",
    ],
  ],
  [
    '<%= SemVer({major => 18446744073709551616, minor => 1, patch => 18446744073709551617}) %><%= -9223372036854775809 %><% 1 = 2 %>',
    [
      "Error: A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0x10000000000000000' (file: t.epp, line: 1, column: 22)",
      "Error: A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0x10000000000000001' (file: t.epp, line: 1, column: 65)",
      "Error: A Literal Integer resulted in a value outside of Puppet Integer max range, got '+0x8000000000000001' (file: t.epp, line: 1, column: 95)",
      "Error: Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference (file: t.epp, line: 1, column: 120)",
      'Error: epp(): Invalid EPP: Language validation logged 4 errors. Giving up (file: t.epp)',
    ],
  ],
];

/**
 * The CLI's stderr in Puppet's words: `t.epp:1:4: error: m [CODE]` is `Error: m (file: t.epp, line: 1,
 * column: 4)`; Puppet's summary and its only error say `epp(): Invalid EPP: ` first. The code frames
 * and hints between are Pantograph's own.
 */
function asPuppetSays(stderr: string): string[] {
  const lines: string[] = [];
  for (const line of stderr.split('\n')) {
    const m = /^(t\.epp)(?::(\d+):(\d+))?: (error|warning): (.*?)(?: \[[A-Z0-9_]+\])?$/.exec(line);
    if (!m) continue;
    const label = m[4] === 'error' ? 'Error' : 'Warning';
    const where = m[2] ? `(file: t.epp, line: ${m[2]}, column: ${m[3]})` : '(file: t.epp)';
    lines.push(`${label}: ${m[5]} ${where}`);
  }
  const errors = lines.filter((l) => l.startsWith('Error: '));
  // Puppet's frame of the error that ends the render: the summary, or the only error.
  const last = errors.length === 1 ? errors[0]! : errors.at(-1)!;
  lines[lines.indexOf(last)] = last.replace(/^Error: /, 'Error: epp(): Invalid EPP: ');
  return lines;
}

afterAll(removeTempDirs);

describe('epp render of a template with several validation errors (Puppet 7.23 on stderr)', () => {
  for (const [template, expected] of PUPPET) {
    it(template, () => {
      const dir = tempDir();
      writeFileSync(join(dir, 't.epp'), `${template}\n`);
      const run = spawnSync(process.execPath, [BIN, 'epp', 'render', 't.epp'], {
        cwd: dir,
        encoding: 'utf8',
      });
      expect(asPuppetSays(run.stderr)).toEqual(expected);
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(readdirSync(dir)).toEqual(['t.epp']);
    });
  }

  it('prints a code frame under each error', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.epp'), '<% class a {} %>\n<% $0 = 1 %>\n');
    const run = spawnSync(process.execPath, [BIN, 'epp', 'render', 't.epp'], { cwd: dir, encoding: 'utf8' });
    expect(run.stderr).toBe(
      [
        't.epp:1:4: error: Classes, definitions, and nodes may only appear at toplevel or inside other classes [EPP_UNSUPPORTED]',
        '> 1 | <% class a {} %>',
        '    |    ^^^^^',
        "t.epp:2:4: error: Illegal attempt to assign to the numeric match result variable '$0'. Numeric variables are not assignable [EPP_SYNTAX]",
        '  1 | <% class a {} %>',
        '> 2 | <% $0 = 1 %>',
        '    |    ^^',
        't.epp: error: Language validation logged 2 errors. Giving up',
        '',
      ].join('\n'),
    );
  });
});

describe('the library error of several validation errors', () => {
  const source = '<% $x = {a => 1, a => 2} %>\n<% 1 = 2 %><% case 1 { default: {} default: {} } %>\n';

  it('is the first, in Puppet order, and carries them all with their positions', () => {
    let error: unknown;
    try {
      parseEpp(source, { file: 'm.epp' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EppSyntaxError);
    const first = error as EppSyntaxError;
    expect([first.message, first.where]).toEqual([
      "This 'case' statement has no effect. A value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
      'm.epp:2:15',
    ]);
    expect(first.errors?.map((e) => [e.code, e.where, e.message])).toEqual([
      ['EPP_NO_EFFECT', 'm.epp:2:15', first.message],
      [
        'EPP_SYNTAX',
        'm.epp:2:4',
        "Illegal attempt to assign to 'a Literal Integer'. Not an assignable reference",
      ],
      [
        'EPP_SYNTAX',
        'm.epp:2:36',
        "This 'case' statement already has a 'default' entry - this is a duplicate",
      ],
    ]);
    expect(first.givingUp).toBe('Language validation logged 3 errors, and 1 warnings. Giving up');
  });

  it('gives each to findSyntaxErrors (epp validate, the language server)', () => {
    expect(findSyntaxErrors(source, { file: 'm.epp' }).map((e) => e.where)).toEqual([
      'm.epp:2:15',
      'm.epp:2:4',
      'm.epp:2:36',
    ]);
  });

  it('is a single error with no list when there is one', () => {
    expect(() => parseEpp('<% class a {} %>')).toThrow(
      expect.objectContaining({ errors: undefined, givingUp: undefined }),
    );
  });
});
