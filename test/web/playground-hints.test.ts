/**
 * Session 23: the playground shows each error's hint as `epp render` prints it under the error, worded for
 * the page: a hint naming a command-line option names the page's control instead (Strict variables for
 * `--no-strict`), or says the page has none. The page's Strict variables renders as `epp render
 * --no-strict` does when unticked. Opened in Debian's chromium through playwright-core, driven as a user
 * drives it, and compared with the built command line.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';
import { OPTIONS_NAMED_AS_ELSEWHERE, pageHint } from '../../web/playground/page-hints.js';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { openPlayground } from '../helpers/ui-pages.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'dist/cli/bin.cjs');

let browser: Browser;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  ({ browser, page } = await openPlayground(errors));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  removeTempDirs();
});

/** `pantograph epp render` of `template` with `values` (YAML): its output, its error line and its hint. */
function cliRender(template: string, values: string, ...flags: string[]) {
  const dir = tempDir('pg-hints-');
  writeFileSync(join(dir, 'main.epp'), template);
  writeFileSync(join(dir, 'values.yaml'), values);
  const run = spawnSync(
    process.execPath,
    [bin, 'epp', 'render', 'main.epp', '--values-file', 'values.yaml', ...flags],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  const lines = run.stderr.split('\n');
  return {
    status: run.status,
    stdout: run.stdout,
    error: lines[0]?.replace(': error: ', ': ') ?? '',
    hint: lines.find((l) => l.startsWith('  hint: '))?.slice('  hint: '.length),
    stderr: run.stderr,
  };
}

const outcome = () => page.evaluate(() => window.playground.outcome());
const shownHints = () => page.locator('#problems li.error + li.hint').allTextContents();

/** The engine's hint for the error of `template` rendered in Node (no values). */
function engineHint(template: string): { code: string; message: string; hint: string | undefined } {
  try {
    renderEpp(template, {}, { file: 'main.epp', files: { 'main.epp': template } });
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    return { code: e.code, message: e.message, hint: e.hint };
  }
  throw new Error('no error');
}

describe("the playground's hints", () => {
  it('shows the hint under the error as `epp render` prints it, in the same words when it names no option', async () => {
    const template = '<%- | String $name, Integer $port | -%>\n<%= $name %>:<%= $port %>\n';
    const cli = cliRender(template, 'name: web\n');
    expect(cli.status).toBe(1);
    expect(cli.hint).toBe("pass a value for 'port', or give the parameter a default");
    await page.evaluate(() => window.playground.setValues('name: web\n'));
    await page.evaluate((t) => window.playground.setFile('main.epp', t), template);
    expect((await outcome()).errors).toEqual([cli.error]);
    expect((await outcome()).hints).toEqual([cli.hint]);
    expect(await shownHints()).toEqual([`hint: ${cli.hint}`]);
    expect(errors).toEqual([]);
  });

  it('names its Strict variables control where `epp render` names --no-strict, and unticked renders as --no-strict', async () => {
    const template = '<%- | String $name | -%>\n<%= $name %> [<%= $nosuch %>]\n';
    const strict = cliRender(template, 'name: web\n');
    expect(strict.hint).toContain('(--no-strict)');
    await page.evaluate(() => window.playground.setValues('name: web\n'));
    await page.evaluate((t) => window.playground.setFile('main.epp', t), template);
    expect((await outcome()).errors).toEqual([strict.error]);
    const [hint] = await shownHints();
    expect(hint).toBe(
      'hint: pass it as a value, assign it before use, or untick Strict variables, above the output (it then renders empty, with a warning, as Puppet 7 does)',
    );
    expect(hint).not.toContain('--');
    // The user does what the hint says: the page renders as the command line does with --no-strict.
    const loose = cliRender(template, 'name: web\n', '--no-strict');
    expect(loose.status).toBe(0);
    expect(loose.stderr).toBe("main.epp:2:19: warning: Unknown variable: 'nosuch'.\n");
    await page.getByLabel('Strict variables').uncheck();
    await expect.poll(async () => (await outcome()).output).toBe(loose.stdout);
    expect((await outcome()).errors).toEqual([]);
    expect((await outcome()).warnings).toEqual([
      "main.epp:2:19: Unknown variable: 'nosuch'. [EPP_UNKNOWN_VARIABLE]",
    ]);
    expect(await page.locator('#output').textContent()).toBe('web []\n');
    // Ticked again: the error again.
    await page.getByLabel('Strict variables').check();
    await expect.poll(async () => (await outcome()).errors).toEqual([strict.error]);
    expect(errors).toEqual([]);
  });

  it('says the playground has no modules where `epp render` names --modulepath', async () => {
    await page.evaluate(() => window.playground.setValues('{}'));
    await page.evaluate(() => window.playground.setFile('main.epp', '<%= Foo::Bar %>'));
    expect((await outcome()).hints).toEqual([
      "a type of the module 'foo': the playground has no modules: render it with `pantograph epp render`, which finds them (--modulepath)",
    ]);
    await page.evaluate(() => window.playground.setFile('main.epp', '<%= foo::bar() %>'));
    const [hint] = (await outcome()).hints;
    expect(hint).toContain('the playground has no modules');
    expect(hint).not.toContain('with a module path, the functions');
  });

  it('says how to give a file epp() asks for that no tab holds: a tab of its own', async () => {
    await page.evaluate(() => window.playground.setFile('main.epp', "<%= epp('partials/nope.epp') %>"));
    expect((await outcome()).errors[0]).toMatch(
      /Could not find template 'partials\/nope\.epp' \[EPP_TEMPLATE_NOT_FOUND\]$/,
    );
    expect(await shownHints()).toEqual([
      'hint: add it in a tab of its own: + beside the tabs, named partials/nope.epp',
    ]);
  });

  it("puts the hint in the underline's tooltip too", async () => {
    await page.evaluate(() => window.playground.setValues('name: web\n'));
    await page.evaluate(() => window.playground.setFile('main.epp', '<%= $nosuch %>'));
    await page.locator('#template .cm-lintRange-error').hover();
    await expect
      .poll(() => page.locator('.cm-tooltip .cm-diagnostic').first().textContent(), { timeout: 5000 })
      .toContain('hint: pass it as a value, assign it before use, or untick Strict variables');
  });
});

describe('page hints (no browser)', () => {
  it("words every command-line option the engine's hints name: the source names no other", () => {
    // A hint naming a new option must be worded for the page (web/playground/page-hints.ts) first.
    const named = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.ts')) {
          for (const line of readFileSync(path, 'utf8').split('\n')) {
            if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue; // comments
            for (const literal of line.match(/'[^']*'|`[^`]*`|"[^"]*"/g) ?? []) {
              for (const m of literal.matchAll(/(?<![\w-])--[a-z][a-z-]+/g)) named.add(m[0]);
            }
          }
        }
      }
    };
    walk(join(root, 'src/epp'));
    expect([...named].sort()).toEqual(['--modulepath', '--no-strict']);
    const strict = engineHint('<%= $x %>');
    expect(pageHint(strict.code, strict.message, strict.hint)).not.toContain('--');
    const moduleType = engineHint('<%= Foo::Bar %>');
    const said = pageHint(moduleType.code, moduleType.message, moduleType.hint) ?? '';
    expect([...said.matchAll(/--[a-z-]+/g)].map((m) => m[0])).toEqual([...OPTIONS_NAMED_AS_ELSEWHERE]);
  });

  it('says of an option it has no words for that it is not one of the page', () => {
    expect(pageHint('EPP_X', 'm', 'try --frobnicate')).toBe(
      'try --frobnicate (--frobnicate: an option of `pantograph epp render`, not of this page)',
    );
    expect(pageHint('EPP_X', 'm', undefined)).toBeUndefined();
  });
});

declare const window: {
  playground: {
    ready(): Promise<void>;
    setFile(name: string, text: string): Promise<void>;
    setValues(text: string): Promise<void>;
    outcome(): { output: string; errors: string[]; hints: (string | null)[]; warnings: string[] };
  };
};
