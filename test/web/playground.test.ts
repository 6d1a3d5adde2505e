/**
 * Issue 15: EPP running in the browser. The playground built by `npm run build` (dist/playground) is opened
 * in Debian's chromium through playwright-core and used as a person uses it: it renders as one types, shows
 * each error with its position and underlines it, reads partials with epp() from its in-memory files.
 * And `pantograph/epp` bundles for a browser (no `node:` import) and renders there. Screenshots of each
 * state go to test-results/screenshots/ (git-ignored) for a person to look at.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fs.js';
import { openPlayground } from '../helpers/ui-pages.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'dist/cli/bin.cjs');
const page_ = pathToFileURL(join(root, 'dist/playground/index.html')).href;
const shots = join(root, 'test-results', 'screenshots');

let browser: Browser;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  ({ browser, page } = await openPlayground(errors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  removeTempDirs();
});

const outcome = () => page.evaluate(() => window.playground.outcome());
const output = () => page.locator('#output').textContent();

describe('the EPP playground in a browser', () => {
  it('renders its example on load, a partial included through epp()', async () => {
    expect(await output()).toBe(
      '# web, kept in line by Pantograph\nlisten 80;\nlisten 443 ssl;\n# end of WEB\n',
    );
    expect(await page.locator('#timing').textContent()).toMatch(/^rendered in \d+\.\d\d ms$/);
    await page.screenshot({ path: join(shots, 'playground-example.png') });
    expect(errors).toEqual([]);
  });

  it('updates the output as the user types, in the values and in the template', async () => {
    await page.locator('#values .cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('service: web\n');
    await page.locator('#template .cm-content').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('<%- | String $service | -%>\nservice: <%= $service.upcase %>\n');
    await expect.poll(output).toBe('service: WEB\n');
    await page.screenshot({ path: join(shots, 'playground-typed.png') });
  });

  it('shows an error as Node shows it (message, code, file:line:col), underlined, the last output kept dimmed', async () => {
    // From a known text (the previous test's typing may have been auto-indented differently).
    await page.evaluate(() => window.playground.setValues('service: web\n'));
    const start = '<%- | String $service | -%>\nservice: <%= $service.upcase %>\n';
    await page.evaluate((text) => window.playground.setFile('main.epp', text), start);
    await page.locator('#template .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('<%= $service.nosuch() %>');
    const template = `${start}<%= $service.nosuch() %>`;
    const expected = nodeError(template, { service: 'web' });
    await expect.poll(async () => (await outcome()).errors).toEqual([expected]);
    expect(expected).toMatch(/^main\.epp:3:\d+: .*nosuch/);
    await expect.poll(() => page.locator('#template .cm-lintRange-error').count()).toBe(1);
    expect(await page.locator('#problems .error').textContent()).toBe(expected);
    expect(await page.locator('#output.stale').count()).toBe(1);
    // the output of the last text that rendered (while typing, `<` alone rendered as text)
    expect(await output()).toMatch(/^service: WEB\n/);
    await page.screenshot({ path: join(shots, 'playground-error.png') });
  });

  it('takes values as YAML or JSON, and says where the values are wrong', async () => {
    await page.evaluate(() => window.playground.setFile('main.epp', '<%= $a %>+<%= $b[1] %>\n'));
    await page.evaluate(() => window.playground.setValues('{"a": 1, "b": [true, "x"]}'));
    expect(await output()).toBe('1+x\n');
    await page.evaluate(() => window.playground.setValues('a: [unclosed\n'));
    expect((await outcome()).errors[0]).toMatch(/^values:\d+:\d+: .* \[VALUES_YAML\]$/);
    await expect.poll(() => page.locator('#values .cm-lintRange-error').count()).toBe(1);
    await page.screenshot({ path: join(shots, 'playground-values-error.png') });
  });

  it("reads values as `epp render --values-file` reads them (Puppet's YAML): Floats, exact big Integers, YAML 1.1 scalars", async () => {
    // Each value with its Puppet type; the command line prints what `puppet epp render` prints for these.
    const template = `<%- | $float, $big, $yes, $octal, $underscored, $exp, $nothing, $sexagesimal, $list | -%>
<% [$float, $big, $big + 1, $yes, $octal, $underscored, $exp, $nothing, $sexagesimal, $list].each |$v| { -%>
<%= type($v) %> <%= $v %>
<% } -%>
`;
    const yaml =
      'float: 1.0\nbig: 9007199254740993\nyes: yes\noctal: 010\nunderscored: 1_000\nexp: 1e3\nnothing: ~\nsexagesimal: 1:30\nlist: [1, 2.50, "x"]\n';
    const json =
      '{"float": 1.0, "big": 9007199254740993, "yes": true, "octal": 8, "underscored": 1000, "exp": "1e3", "nothing": null, "sexagesimal": 5400, "list": [1, 2.50, "x"]}';
    const dir = writeTree(tempDir('playground-values-'), {
      't.epp': template,
      'values.yaml': yaml,
      'values.json': json,
      'dup.yaml': 'a: 1\na: 2\n',
    });
    const cli = (valuesFile: string) =>
      spawnSync(process.execPath, [bin, 'epp', 'render', 't.epp', '--values-file', valuesFile], {
        cwd: dir,
        encoding: 'utf8',
      });
    const expected = cli('values.yaml');
    expect(expected.stdout.split('\n').slice(0, 3)).toEqual([
      'Float[1.0, 1.0] 1.0',
      'Integer[9007199254740993, 9007199254740993] 9007199254740993',
      'Integer[9007199254740994, 9007199254740994] 9007199254740994',
    ]);
    expect(cli('values.json').stdout).toBe(expected.stdout);
    await page.evaluate((t) => window.playground.setFile('main.epp', t), template);
    for (const text of [yaml, json]) {
      await page.evaluate((v) => window.playground.setValues(v), text);
      expect(await outcome()).toMatchObject({ errors: [], output: expected.stdout });
    }
    // A values error where the command line puts it.
    const duplicate = cli('dup.yaml');
    expect(duplicate.stderr).toBe(
      'dup.yaml:2:1: error: Map keys must be unique [VALUES_YAML]\n  1 | a: 1\n> 2 | a: 2\n    | ^\n  hint: this key is already set above, in the same mapping: keep one of the two (merge their contents into it)\n',
    );
    await page.evaluate(() => window.playground.setValues('a: 1\na: 2\n'));
    expect((await outcome()).errors).toEqual(['values:2:1: Map keys must be unique [VALUES_YAML]']);
    await expect.poll(() => page.locator('#values .cm-lintRange-error').textContent()).toBe('a');
    expect(errors).toEqual([]);
  });

  it('renders a file added in a new tab through epp(), and an error in it is shown in that file', async () => {
    await page.evaluate(() => window.playground.setValues('name: x\n'));
    await page.evaluate(() => window.playground.setFile('partials/b.epp', 'B<%= $nope %>'));
    await page.evaluate(() => window.playground.setFile('main.epp', "<%= epp('partials/b.epp') %>"));
    const expected = nodeError(
      "<%= epp('partials/b.epp') %>",
      { name: 'x' },
      { 'partials/b.epp': 'B<%= $nope %>' },
    );
    expect(expected).toMatch(/^partials\/b\.epp:1:\d+: /);
    expect((await outcome()).errors).toEqual([expected]);
    await page.evaluate(() => window.playground.select('partials/b.epp'));
    await expect.poll(() => page.locator('#template .cm-lintRange-error').count()).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('the playground stays usable on a template that does not end (QA qa21, M1), keeps CRLF (L1)', () => {
  for (const [kind, template] of [
    ['nested ranges', '<% Integer[1, 9999999].each |$a| { Integer[1, 9999999].each |$b| { } } %>done'],
    ['a backtracking regular expression', `<%= '${'a'.repeat(40)}!' =~ /^(a+)+$/ %>`],
  ] as const) {
    it(`stops a render of ${kind} with EPP_TIME_LIMIT, the tab answering meanwhile; the next text renders`, async () => {
      await page.evaluate(() => window.playground.setValues('a: 1\n'));
      const started = Date.now();
      // Not awaited: the page must answer while the worker renders.
      void page.evaluate((t) => window.playground.setFile('main.epp', t), template);
      const answered = await page.evaluate(() => 1 + 1);
      expect(answered).toBe(2);
      expect(Date.now() - started).toBeLessThan(1000);
      await expect
        .poll(async () => (await outcome()).errors.join('\n'), { timeout: 10_000 })
        .toMatch(/EPP_TIME_LIMIT/);
      expect(await page.locator('#problems .error').first().textContent()).toMatch(/EPP_TIME_LIMIT/);
      await page.evaluate(() => window.playground.setFile('main.epp', 'fine <%= $a %>\n'));
      expect(await outcome()).toMatchObject({ errors: [], output: 'fine 1\n' });
    });
  }

  it('renders a CRLF template with CRLF line ends, as `epp render` does (set, or pasted)', async () => {
    await page.evaluate(() => window.playground.setValues('n: 1\n'));
    const template = 'a\r\nb <%= $n %>\r\nc\r\n';
    await page.evaluate((t) => window.playground.setFile('main.epp', t), template);
    expect((await outcome()).output).toBe('a\r\nb 1\r\nc\r\n');
    // Pasted into an LF template, as a user would.
    await page.evaluate(() => window.playground.setFile('main.epp', ''));
    await page.locator('#template .cm-content').click();
    await page.evaluate((t) => {
      const data = new DataTransfer();
      data.setData('text/plain', t);
      document
        .querySelector('#template .cm-content')!
        .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, template);
    await expect.poll(async () => (await outcome()).output).toBe('a\r\nb 1\r\nc\r\n');
  });

  it('renders a CRLF partial of its own tab as `epp render` does, set or pasted; the cursor stays after the paste and Undo takes it back', async () => {
    const main = "A\n<%= epp('partials/c.epp', { 'n' => 2 }) %>Z\n";
    const partial = '<%- | Integer $n | -%>\r\nx\r\ny <%= $n %>\r\n';
    const dir = writeTree(tempDir('playground-crlf-'), { 'main.epp': main, 'partials/c.epp': partial });
    const cli = spawnSync(process.execPath, [bin, 'epp', 'render', 'main.epp'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(cli.stdout).toBe('A\nx\r\ny 2\r\nZ\n');
    await page.evaluate(() => window.playground.setValues('n: 1\n'));
    await page.evaluate((t) => window.playground.setFile('partials/c.epp', t), partial);
    await page.evaluate((t) => window.playground.setFile('main.epp', t), main);
    expect(await outcome()).toMatchObject({ errors: [], output: cli.stdout });
    // Pasted into the partial's empty tab, then typed on: the typing goes after the pasted text.
    await page.evaluate(() => window.playground.setFile('partials/c.epp', ''));
    await page.locator('#template .cm-content').click();
    await paste(partial);
    await page.keyboard.type('end');
    await expect.poll(async () => (await outcome()).output).toBe('A\nx\r\ny 2\r\nendZ\n');
    await page.keyboard.press('Enter');
    await page.keyboard.type('more');
    await expect.poll(async () => (await outcome()).output).toBe('A\nx\r\ny 2\r\nend\r\nmoreZ\n');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
    await expect.poll(async () => (await outcome()).output).toBe('A\nZ\n');
    expect(errors).toEqual([]);
  });

  it('says an error in a partial as `epp render` says it (the call that led there), underlined in the partial and at the call in main.epp', async () => {
    const main = "<%- | String $x | -%>\nA <%= epp('partials/p.epp', { 'n' => $x }) %>\n";
    const partial = '<%- | Integer $n | -%>\nn=<%= $n %>\n';
    const dir = writeTree(tempDir('playground-partial-error-'), {
      'main.epp': main,
      'partials/p.epp': partial,
      'v.yaml': 'x: hi\n',
    });
    const cli = spawnSync(process.execPath, [bin, 'epp', 'render', 'main.epp', '--values-file', 'v.yaml'], {
      cwd: dir,
      encoding: 'utf8',
    });
    // The command line's first line, as the page says errors (no `error:`; the partial by its name).
    const said = cli.stderr.split('\n')[0]!.replace(`${dir}/`, '').replace(': error: ', ': ');
    expect(said).toBe(
      "partials/p.epp:1:7: parameter 'n' expects an Integer value, got String (called at main.epp:2:7) [EPP_TYPE_MISMATCH]",
    );
    await page.evaluate(() => window.playground.setValues('x: hi\n'));
    await page.evaluate((t) => window.playground.setFile('partials/p.epp', t), partial);
    await page.evaluate((t) => window.playground.setFile('main.epp', t), main);
    expect((await outcome()).errors).toEqual([said]);
    expect(await page.locator('#problems .error').textContent()).toBe(said);
    await expect
      .poll(() => page.locator('#template .cm-lintRange-error').textContent())
      .toBe("epp('partials/p.epp', { 'n' => $x })");
    await page.evaluate(() => window.playground.select('partials/p.epp'));
    await expect.poll(() => page.locator('#template .cm-lintRange-error').textContent()).toBe('Integer $n');
    expect(errors).toEqual([]);
  });

  it('fits a 600 px window, its panes one under the other; the tab shown is marked for a screen reader', async () => {
    const narrow = await browser.newPage({ viewport: { width: 600, height: 900 } });
    await narrow.goto(page_);
    await narrow.waitForFunction(() => window.playground !== undefined);
    await narrow.evaluate(() => window.playground.ready());
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth)).toBe(600);
    const widths = await narrow
      .locator('main > .pane')
      .evaluateAll((panes) => panes.map((p) => Math.round(p.getBoundingClientRect().width)));
    expect(widths.every((w) => w > 500)).toBe(true);
    expect(await narrow.locator('#tabs .tab[aria-current="true"]').textContent()).toBe('main.epp');
    await narrow.screenshot({ path: join(shots, 'playground-narrow.png'), fullPage: true });
    await narrow.close();
  });

  it('names its editors and announces its problems', async () => {
    expect(await page.locator('#template .cm-content').getAttribute('aria-label')).toBe('Template');
    expect(await page.locator('#values .cm-content').getAttribute('aria-label')).toBe(
      'Values (YAML or JSON)',
    );
    expect(await page.locator('#problems').getAttribute('aria-live')).toBe('polite');
    expect(errors).toEqual([]);
  });
});

/** Pastes `text` into the template editor as a browser does (the clipboard's text/plain). */
const paste = (text: string) =>
  page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document
      .querySelector('#template .cm-content')!
      .dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);

/** The error Node's engine gives for the same input, as the playground prints errors. */
function nodeError(
  template: string,
  values: Record<string, unknown>,
  more: Record<string, string> = {},
): string {
  try {
    renderEpp(template, values, { file: 'main.epp', files: { 'main.epp': template, ...more } });
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    return `${e.location?.file}:${e.line}:${e.column}: ${e.messageWithCallers} [${e.code}]`;
  }
  throw new Error('no error in Node');
}

describe('pantograph/epp in a bundler for the browser', () => {
  it('bundles with no node: import and renders in the browser, epp() reading an in-memory file', async () => {
    const dir = writeTree(tempDir('browser-entry-'), {
      'entry.js': `import { renderEpp } from 'pantograph/epp';
window.result = renderEpp("<%= epp('p.epp', { 'n' => 2 }) %>!", {}, { files: { 'p.epp': '<%- | Integer $n | -%><%= $n * 21 %>' } });`,
    });
    const out = join(dir, 'bundle.js');
    // The package installed as a user installs it: the bundler reads its exports and picks "browser".
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'pantograph'));
    await build({
      entryPoints: [join(dir, 'entry.js')],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      outfile: out,
      logLevel: 'silent',
    });
    const other = await browser.newPage();
    await other.addScriptTag({ path: out });
    expect(await other.evaluate(() => window.result)).toBe('42!');
    await other.close();
  });
});

/** The page's window, as the tests reach it (page.evaluate runs these functions in the browser). */
declare const document: {
  querySelector(s: string): { dispatchEvent(e: unknown): void } | null;
  documentElement: { scrollWidth: number };
};
declare const DataTransfer: { new (): { setData(type: string, data: string): void } };
declare const ClipboardEvent: { new (type: string, init: object): unknown };
declare const window: {
  playground: {
    ready(): Promise<void>;
    setFile(name: string, text: string): Promise<void>;
    setValues(text: string): Promise<void>;
    select(name: string): Promise<void>;
    outcome(): { output: string; errors: string[]; warnings: string[]; renderMs: number };
    timeRender(times: number): Promise<number>;
  };
  result?: string;
};
