/**
 * "Syntax error at end of input" is all Puppet says of a block never closed (the message stays Puppet's);
 * the hint names the bracket left open, innermost first, at its line and column, so that a user finds the
 * forgotten `<% } %>` without reading the whole template (that advice only for a block's `{`, not a hash's).
 * Seen from the command line and the editor alike.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EppSyntaxError } from '../../src/epp/errors.js';
import { parseEpp } from '../../src/epp/index.js';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

function syntaxError(source: string): EppSyntaxError {
  try {
    parseEpp(source);
  } catch (e) {
    if (e instanceof EppSyntaxError) return e;
    throw e;
  }
  throw new Error(`no syntax error in ${source}`);
}

describe('an error at the end of input', () => {
  it.each([
    [
      '<% if $x { -%>\nyes\n',
      "the '{' at 1:10 is never closed: add its '}' (in a template, `<% } %>` where the block ends)",
    ],
    // The innermost open bracket is the one to close first.
    [
      '<% [1, 2].each |$i| { %>\n<% if $i == 1 { %>one<% } %>\n<%= $i %>\n<% $x = [1, (2 %>',
      "the '(' at 4:13 is never closed: add its ')'",
    ],
    // A block's `{`: after a test, `else`, a case option's `:`, a lambda's parameters.
    [
      '<% if ($x) { %>',
      "the '{' at 1:12 is never closed: add its '}' (in a template, `<% } %>` where the block ends)",
    ],
    [
      '<% if 1 { %>a<% } else { %>',
      "the '{' at 1:24 is never closed: add its '}' (in a template, `<% } %>` where the block ends)",
    ],
    [
      '<% case 1 { 1: { %>x',
      "the '{' at 1:16 is never closed: add its '}' (in a template, `<% } %>` where the block ends)",
    ],
    [
      '<% $h = [1].map |$x| { %>',
      "the '{' at 1:22 is never closed: add its '}' (in a template, `<% } %>` where the block ends)",
    ],
    // A hash's or a selector's `{` ends in the same expression: no `<% } %>` advice.
    ['<% $h = {a => 1 -%>', "the '{' at 1:9 is never closed: add its '}'"],
    ['<% {a => 1 %>', "the '{' at 1:4 is never closed: add its '}'"],
    ['<% if $x { $h = {a => 1 %>', "the '{' at 1:17 is never closed: add its '}'"],
    ['<% f({a => [1] %>', "the '{' at 1:6 is never closed: add its '}'"],
    ['<% $x = $y ? { %>', "the '{' at 1:14 is never closed: add its '}'"],
  ])('%j: names the bracket left open', (source, hint) => {
    const error = syntaxError(source);
    expect(error.message).toBe('Syntax error at end of input'); // Puppet's words, unchanged
    expect(error.hint).toBe(hint);
  });

  it('has no such hint when every bracket is closed', () => {
    expect(syntaxError('<% if $x { %>a<% } else %>').hint).toBeUndefined();
  });

  it('is shown by `epp validate` under the error, exit 1', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 't.epp'), '<%- | String $name | -%>\n<% if $name { -%>\n<%= $name %>\n');
    const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
    const r = spawnSync(process.execPath, [bin, 'epp', 'validate', 't.epp'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`t.epp:4:1: error: Syntax error at end of input [EPP_SYNTAX]
  2 | <% if $name { -%>
  3 | <%= $name %>
> 4 | 
    | ^
  hint: the '{' at 2:13 is never closed: add its '}' (in a template, \`<% } %>\` where the block ends)
`);
  });
});
