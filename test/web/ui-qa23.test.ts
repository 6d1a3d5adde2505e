/**
 * Session 23, QA of `pantograph ui` as a user: a setting that is a text or null (`hiera_config`, a path,
 * none by default) was a JSON field, where a path had to be typed with its quotes (`spec/x.yaml` alone was
 * "not valid JSON"); and the hint of an unknown variable, in the author's view and the preview, named
 * `--no-strict`, which `pantograph ui` did not take. Debian's chromium and the built command line, on
 * projects made by `pantograph init` and a repository made by `pantograph new template`.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/fs.js';
import { cli, initProject, openUi, uiSession } from '../helpers/ui-pages.js';

const ui = uiSession();
const bin = join(resolve(import.meta.dirname, '../..'), 'dist/cli/bin.cjs');
const sync = (dir: string) => readFileSync(join(dir, '.sync.yml'), 'utf8');

describe('a setting that is a text or null', () => {
  it('is a text field: a path typed as it is, saved as it is; emptied, no value (the default, null)', async () => {
    const dir = initProject('ui-qa23-', 'acme-qa');
    const { page, errors } = await openUi(ui, dir);
    const field = page.locator('fieldset[data-template="rspec"] > .field[data-setting="hiera_config"]');
    const input = page.getByLabel('hiera_config: string|null', { exact: true });
    expect(await input.evaluate((n) => `${n.tagName} ${(n as unknown as { type: string }).type}`)).toBe(
      'INPUT text',
    );
    expect(await input.inputValue()).toBe('');
    await input.fill('spec/fixtures/hiera.yaml');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    expect(await field.evaluate((f) => f.classList.contains('invalid'))).toBe(false);
    await expect.poll(() => page.locator('#apply').isDisabled()).toBe(false);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toContain('rspec:\n  hiera_config: spec/fixtures/hiera.yaml\n');
    const shown = JSON.parse(cli(dir, '--format', 'json', 'show', 'rspec').stdout) as {
      settings: { name: string; value: unknown }[];
    };
    expect(shown.settings.find((s) => s.name === 'hiera_config')?.value).toBe('spec/fixtures/hiera.yaml');
    // Emptied: no value of the project's, as an emptied number field; saved, the key goes.
    await input.fill('');
    await expect
      .poll(() => field.locator('.origin').textContent())
      .toBe('value from the default (null): the field is empty');
    await expect.poll(() => page.locator('#save').isDisabled()).toBe(false);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).not.toContain('hiera_config');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a setting of several types, as JSON', () => {
  it('says how to write a text when what is typed is not JSON; quoted, it is taken', async () => {
    const dir = initProject('ui-qa23-', 'acme-qa');
    expect(cli(dir, 'add', 'template', 'rubocop').status).toBe(0);
    const { page, errors } = await openUi(ui, dir);
    const field = page.locator('fieldset[data-template="rubocop"] > .field[data-setting="selected_profile"]');
    const area = field.locator('textarea');
    expect(await area.inputValue()).toBe('"strict"');
    await area.fill('hardcore');
    await expect
      .poll(() => field.locator(':scope > .error').textContent())
      .toMatch(/^not valid JSON: .*; a text is written in quotes here: "hardcore"$/);
    expect(await page.locator('#save').isDisabled()).toBe(true);
    await area.fill('"hardcore"');
    await expect.poll(() => page.locator('#save').isDisabled()).toBe(false);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toContain('rubocop:\n  selected_profile: hardcore\n');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('Save and Apply right after an edit', () => {
  it('save the edit still on its way to the server (Ctrl+S as the user stops typing), and apply what they saved', async () => {
    const dir = initProject('ui-qa23-', 'acme-qa');
    const { page, errors } = await openUi(ui, dir);
    // A busy machine: the server takes its time to make each edit to the text.
    await page.route('**/api/edit', async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    const coverage = page.locator('#setting-rspec-minimum_code_coverage_percentage');
    await coverage.fill('40');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    await page.locator('#setting-puppet_lint-fail_on_warnings').uncheck();
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('#save-state').textContent(), { timeout: 10_000 }).toBe('saved');
    expect(sync(dir)).toMatch(/minimum_code_coverage_percentage: 40\n[\s\S]*fail_on_warnings: false\n/);
    // Apply clicked while an edit is on its way: it waits for it, then wants its preview first.
    await coverage.fill('45');
    await page.locator('#apply').click();
    await expect
      .poll(() => page.locator('#apply-result').textContent(), { timeout: 10_000 })
      .toBe('not applied: the preview of your last change is not shown yet: apply once it is');
    expect(sync(dir)).not.toContain('45');
    await expect.poll(() => page.locator('#apply').isDisabled(), { timeout: 10_000 }).toBe(false);
    await page.locator('#apply').click();
    await expect
      .poll(() => sync(dir), { timeout: 10_000 })
      .toContain('minimum_code_coverage_percentage: 45\n');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('pantograph ui --no-strict', () => {
  it('renders as `test --no-strict` does, where the hint of an unknown variable sends the author', async () => {
    const repo = tempDir('ui-qa23-repo-');
    expect(cli(repo, 'new', 'template', 'greet', '-C', repo).status).toBe(0);
    appendFileSync(join(repo, 'greet/files/example.epp'), '[<%= $nosuch %>]\n');
    const strict = cli(repo, 'test');
    expect(strict.stdout + strict.stderr).toContain('render with strict variables off (--no-strict)');
    const loose = cli(repo, 'test', '--no-strict');
    expect(loose.stdout + loose.stderr).not.toContain('error: Unknown variable');
    // The command as a user starts it, with the flag the hint names.
    const server = spawn(process.execPath, [bin, 'ui', '--no-strict', '--port', '0'], { cwd: repo });
    try {
      const url = await new Promise<URL>((done, fail) => {
        server.stdout.on('data', (d) => {
          const m = /http:\S+/.exec(String(d));
          if (m) done(new URL(m[0]));
        });
        server.once('exit', (code) => fail(new Error(`pantograph ui exited with ${code}`)));
      });
      const answer = await fetch(`${url.origin}/api/author/case`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pantograph-token': url.searchParams.get('token')! },
        body: JSON.stringify({ template: 'greet', case: 'basic' }),
      });
      const run = (await answer.json()) as {
        problems: { severity: string; code: string }[];
        outputs: { actual: Record<string, string> };
      };
      // A warning, as `test --no-strict` prints it; no error.
      expect(run.problems.map((p) => `${p.severity} ${p.code}`)).toEqual(['warning EPP_UNKNOWN_VARIABLE']);
      expect(run.outputs.actual.example).toMatch(/\[\]\n$/);
    } finally {
      server.kill();
    }
  });
});
