/**
 * Issue 11, item 7: `"delimiters": ["", ""]` (or an empty opening one) in template.json made `apply` and
 * `validate` loop forever. Delimiters are checked before lexing (template.json, the EPP API, `epp render
 * --delimiters`), and the lexer cannot loop without consuming input.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compileEpp, EppError, renderEpp } from '../../src/epp/index.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

function project(delimiters: unknown): string {
  const repo = tempTree({
    't/template.json': JSON.stringify({ name: 't', always_apply: true, delimiters }, null, 2),
    't/files/out.txt.epp': 'value [%= 1 %]\n',
  });
  return writeTree(tempDir(), {
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n`,
  });
}

describe('template.json delimiters that cannot be lexed', () => {
  it.each([
    [['', ''], 'must be a delimiter without spaces'],
    [['', '%]'], 'must be a delimiter without spaces'],
    [['[%', ''], 'must be a delimiter without spaces'],
    [['[ %', '%]'], 'must be a delimiter without spaces'],
    [['%%', '%%'], 'duplicate'],
  ])(
    '%j: validate and apply stop with an error at template.json, nothing written',
    async (delimiters, words) => {
      const root = project(delimiters);
      for (const command of ['validate', 'apply', 'status']) {
        const r = await run(root, command);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(/template\.json:\d+:\d+: error: .*TEMPLATE_INVALID/s);
        expect(r.stderr).toContain(words);
      }
    },
    20_000,
  );
});

describe('the EPP library and command line', () => {
  it.each([
    [['', ''], 'a delimiter is empty'],
    [['', '%>'], 'a delimiter is empty'],
    [['<%', '<%'], 'the opening and closing delimiters are the same'],
    [['< %', '%>'], 'a delimiter contains whitespace'],
  ] as const)('%j is an EPP_DELIMITERS error, not a hang', (delimiters, why) => {
    let error: unknown;
    try {
      renderEpp('text <% 1 %> more', {}, { delimiters: [...delimiters] as [string, string] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EppError);
    expect(error).toMatchObject({ code: 'EPP_DELIMITERS', message: expect.stringContaining(why) });
    expect(() => compileEpp('x', { delimiters: [...delimiters] as [string, string] })).toThrow(why);
  });

  it('`epp render --delimiters` refuses them with a hint', async () => {
    const dir = writeTree(tempDir(), { 't.epp': 'x' });
    const r = await run(dir, 'epp', 'render', 't.epp', '--delimiters', '%% %%');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("invalid --delimiters '%% %%'");
  });

  it('good delimiters still work', () => {
    expect(renderEpp('a [%= 1 + 1 %] [%% %%]', {}, { delimiters: ['[%', '%]'] })).toBe('a 2 [% %]');
  });
});
