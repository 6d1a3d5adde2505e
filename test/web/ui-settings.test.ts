/**
 * The project page as its user meets it after QA round 21: a setting set in `.sync.yml` taken back to the
 * template's default from the page (the key removed, the rest of the file as it was), a plan error with no
 * place in a file said where the preview would be, and the page in a narrow window, used with the keyboard
 * alone. Debian's chromium on projects made by `pantograph init`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startUi } from '../../src/ui/server.js';
import { tempDir, writeTree } from '../helpers/fs.js';
import { cli, initProject as makeProject, openUi, uiSession } from '../helpers/ui-pages.js';

const ui = uiSession();
const initProject = () => makeProject('ui-settings-', 'acme-settings');
/** The page on `dir`, loaded, in a window `width` pixels wide; its page errors collected. */
const open = (dir: string, width = 1500) => openUi(ui, dir, { width });

const sync = (dir: string) => readFileSync(join(dir, '.sync.yml'), 'utf8');
/** The value `show` gives a setting, and where it comes from. */
function shown(dir: string, template: string, setting: string) {
  const show = cli(dir, '--format', 'json', 'show', template);
  return (
    JSON.parse(show.stdout) as {
      settings: { name: string; value: unknown; origin: { layer: string } | null }[];
    }
  ).settings.find((s) => s.name === setting);
}

describe('a setting back to its default, from the page', () => {
  it('removes the key from .sync.yml (its comments, tags and the other keys kept); the field then shows the default', async () => {
    const dir = initProject();
    const text = `${sync(dir)}puppet_lint:
  # lint as in CI
  fail_on_warnings: false   # for now
  disabled_checks: !replace [140chars]   # only this
`;
    writeFileSync(join(dir, '.sync.yml'), text);
    const { page, errors } = await open(dir);
    const field = page.locator(
      'fieldset[data-template="puppet_lint"] > .field[data-setting="fail_on_warnings"]',
    );
    expect(await field.locator('input').isChecked()).toBe(false);
    // Only a setting the project sets can be reset.
    const unset = page.locator('fieldset[data-template="puppet_lint"] > .field[data-setting="relative"]');
    expect(await unset.locator('.reset').count()).toBe(0);
    const reset = field.locator('button.reset');
    expect(await reset.getAttribute('aria-label')).toBe(
      'reset fail_on_warnings to its default (true): remove it from .sync.yml',
    );
    await reset.click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    expect(await field.locator('input').isChecked()).toBe(true);
    expect(await field.locator('.origin').textContent()).toBe('value from default');
    expect(await field.locator('.reset').count()).toBe(0);
    // The keyboard goes on from the setting that was reset.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(
      'setting-puppet_lint-fail_on_warnings',
    );
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toBe(text.replace('  fail_on_warnings: false   # for now\n', ''));
    expect(shown(dir, 'puppet_lint', 'fail_on_warnings')).toMatchObject({
      value: true,
      origin: { layer: 'default' },
    });

    // The last setting of a section: the section goes (not `puppet_lint: {}`).
    await page
      .locator('fieldset[data-template="puppet_lint"] > .field[data-setting="disabled_checks"] button.reset')
      .click();
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toBe(text.replace(/puppet_lint:\n( {2}.*\n)+/, ''));
    expect(cli(dir, 'validate').status).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('an emptied number field, and Add from the keyboard', () => {
  it('an emptied number field is no value (the key goes, the default shows as its placeholder), not `null`', async () => {
    const dir = initProject();
    const text = `${sync(dir)}rspec:\n  minimum_code_coverage_percentage: 90   # CI\n  is_pe: true\n`;
    writeFileSync(join(dir, '.sync.yml'), text);
    const { page, errors } = await open(dir);
    const input = page.locator('#setting-rspec-minimum_code_coverage_percentage');
    const def = shown(dir, 'rspec', 'minimum_code_coverage_percentage');
    expect(await input.inputValue()).toBe('90');
    await input.fill('');
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toBe(text.replace('  minimum_code_coverage_percentage: 90   # CI\n', ''));
    const after = shown(dir, 'rspec', 'minimum_code_coverage_percentage');
    expect(after).toMatchObject({ origin: { layer: 'default' } });
    expect(def).toMatchObject({ value: 90 });
    expect(await input.getAttribute('placeholder')).toBe(String(after!.value));
    expect(errors).toEqual([]);
    await page.close();
  });

  it('does not save while a field has an error: the value before it would be saved without a word', async () => {
    const dir = initProject();
    const { page, errors } = await open(dir);
    await page.locator('#setting-puppet_lint-fail_on_warnings').uncheck(); // a valid change
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    const coverage = page.locator('#setting-rspec-minimum_code_coverage_percentage');
    await coverage.fill('-5');
    await expect
      .poll(() => page.locator('#setting-rspec-minimum_code_coverage_percentage-error').textContent())
      .toMatch(/must be >= 0/);
    expect(await page.locator('#save-state').textContent()).toBe('1 setting has an error: fix it to save');
    expect(await page.locator('#save').isDisabled()).toBe(true);
    expect(await page.locator('#apply').isDisabled()).toBe(true);
    await page.keyboard.press('Control+s');
    await coverage.fill('50');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toMatch(/fail_on_warnings: false\n[\s\S]*minimum_code_coverage_percentage: 50\n/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a long default (gemfile's gem lists) is folded under *default*: the field's error stays in sight", async () => {
    const dir = initProject();
    const { page, errors } = await open(dir, 1400);
    const field = page.locator('fieldset[data-template="gemfile"] > .field[data-setting="required"]');
    // Inline, the 3,000-character default filled the screen between the field and its error.
    expect((await field.locator('.help').innerText()).length).toBeLessThan(600);
    const folded = field.locator('.help details.default');
    expect(await folded.locator('summary').textContent()).toBe('default');
    expect(await folded.locator('pre').isVisible()).toBe(false);
    await folded.locator('summary').press('Enter'); // opened from the keyboard too
    expect(JSON.parse((await folded.locator('pre').textContent()) ?? '')).toHaveProperty([':development']);
    await folded.locator('summary').press('Enter');
    const textarea = page.locator('#setting-gemfile-required');
    await textarea.fill('{":development": "nope"}');
    const error = page.locator('#setting-gemfile-required-error');
    await expect.poll(() => error.textContent()).toMatch(/'required.:development' must be/);
    const [box, view] = [await error.boundingBox(), page.viewportSize()];
    expect(box!.y + box!.height).toBeLessThan(view!.height); // seen without scrolling from the field
    // A short default stays inline, as before.
    expect(
      await page
        .locator('fieldset[data-template="gemfile"] > .field[data-setting="source"] .help')
        .textContent(),
    ).toMatch(/\(default: "https:\/\/rubygems.org"\)$/);
    expect(readFileSync(join(dir, '.sync.yml'), 'utf8')).not.toContain('nope');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("keeps the keyboard on a template's button after Add and Remove (the catalogue is drawn again)", async () => {
    const dir = initProject();
    const { page, errors } = await open(dir);
    await page.locator('#catalogue button[data-template="rubocop"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('fieldset[data-template="rubocop"]');
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await expect.poll(focused).toBe('Remove rubocop');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('fieldset[data-template="rubocop"]').count()).toBe(0);
    await expect.poll(focused).toBe('Add rubocop');
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('an emptied number field inside an object setting', () => {
  /** A project applying `svc` (a filesystem source), whose `server` setting is an object with a number. */
  function serviceProject(syncTail: string): string {
    const dir = tempDir('ui-settings-nested-');
    writeTree(join(dir, 'repo'), {
      'svc/template.json': JSON.stringify({
        name: 'svc',
        version: '0.1.0',
        default_settings: { server: { host: 'localhost', port: 8080, workers: 2 } },
      }),
      'svc/template_schema.json': JSON.stringify({
        type: 'object',
        properties: {
          server: {
            type: 'object',
            properties: { host: { type: 'string' }, port: { type: 'integer' }, workers: { type: 'integer' } },
          },
        },
      }),
      'svc/files/svc.conf.epp':
        "<%= $settings['server']['host'] %>:<%= $settings['server']['port'] %> x<%= $settings['server']['workers'] %>\n",
    });
    const sync = `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ../repo\n  templates: [svc]\n${syncTail}`;
    return writeTree(join(dir, 'project'), { '.sync.yml': sync });
  }

  const portOf = (page: Page) =>
    page.locator(
      'fieldset[data-template="svc"] .field[data-setting="server"] .field[data-property="port"] input',
    );

  it('is no value, as at the top level: the key goes from .sync.yml, the default applies (its placeholder)', async () => {
    const dir = serviceProject('svc:\n  server:\n    port: 9000   # staging\n    workers: 4\n');
    const { page, errors } = await open(dir);
    const port = portOf(page);
    expect(await port.inputValue()).toBe('9000');
    expect(await port.getAttribute('placeholder')).toBe('8080');
    await port.fill('');
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toMatch(/svc:\n\s+server:\n\s+workers: 4\n/);
    expect(sync(dir)).not.toContain('9000');
    expect(shown(dir, 'svc', 'server')).toMatchObject({
      value: { host: 'localhost', port: 8080, workers: 4 },
    });
    expect(errors).toEqual([]);
    await page.close();
  });

  it("when it was the object's only key, the setting goes whole (not `server: {}`)", async () => {
    const dir = serviceProject('svc:\n  server:\n    port: 9000\n');
    const { page, errors } = await open(dir);
    await portOf(page).fill('');
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).not.toMatch(/server|9000/);
    expect(shown(dir, 'svc', 'server')).toMatchObject({
      value: { host: 'localhost', port: 8080, workers: 2 },
      origin: { layer: 'default' },
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a plan error with no place in a file (QA qa21: shown, untested)', () => {
  it('says it where the preview would be and with the problems, as `status` says it; Apply stays disabled', async () => {
    const dir = initProject();
    writeFileSync(join(dir, '.sync.yml'), `${sync(dir)}  delete: [tasks]\n`);
    mkdirSync(join(dir, 'tasks'));
    const status = cli(dir, 'status');
    expect(status.stderr).toBe(
      'error: delete names the directory tasks [SYNC_IS_DIRECTORY]\n  hint: List the files to delete, or a glob such as `dir/**`.\n',
    );
    const { page, errors } = await open(dir);
    const said =
      'error: delete names the directory tasks [SYNC_IS_DIRECTORY]hint: List the files to delete, or a glob such as `dir/**`.';
    expect(await page.locator('#files li.error').textContent()).toBe(said);
    expect(await page.locator('#problems li.error').textContent()).toBe(said);
    expect(await page.locator('#counts').textContent()).toBe('no preview: the plan has an error');
    expect(await page.locator('#apply').isDisabled()).toBe(true);
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The page's document, as page.evaluate reaches it in the browser. */
declare const document: {
  activeElement: { id: string; getAttribute(name: string): string | null } | null;
  documentElement: { scrollWidth: number };
};
declare const innerHeight: number;

describe('the page in a narrow window, with the keyboard alone', () => {
  it('stacks its panes at 600 px; Ctrl+S saves from a field, Save kept in sight; a value typed can be reset; the header goes to the preview', async () => {
    const dir = initProject();
    const { page, errors } = await open(dir, 600);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(600);
    const boxes = await page
      .locator('main > .pane')
      .evaluateAll((panes) => panes.map((p) => Math.round(p.getBoundingClientRect().width)));
    expect(boxes.every((w) => w > 500)).toBe(true);
    // The catalogue's buttons say which template they add or remove.
    expect(await page.locator('#catalogue button[data-template="rubocop"]').getAttribute('aria-label')).toBe(
      'Add rubocop',
    );
    // To the first setting of puppet_lint by Tab alone.
    const focused = () => page.evaluate(() => document.activeElement?.id ?? '');
    for (let i = 0; i < 150 && (await focused()) !== 'setting-puppet_lint-fail_on_warnings'; i++) {
      await page.keyboard.press('Tab');
    }
    expect(await focused()).toBe('setting-puppet_lint-fail_on_warnings');
    expect(await page.title()).toBe('acme-settings · Pantograph');
    await page.keyboard.press('Space');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    expect(await page.title()).toBe('• acme-settings · Pantograph'); // which tab has unsaved edits
    const save = await page.locator('#save').boundingBox();
    expect(save!.y + save!.height).toBeLessThanOrEqual(900);
    // The value set here can be taken back at once: the next Tab is its reset.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(
      /^reset fail_on_warnings to its default/,
    );
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Control+s');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toContain('puppet_lint:\n  fail_on_warnings: false\n');
    // The header's Preview link, then Tab and Enter: a diff, its row marked, in sight.
    await page.locator('header a[href="#preview-pane"]').focus();
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('preview-pane');
    const row = page.locator('#files li[data-path=".puppet-lint.rc"] button');
    for (let i = 0; i < 40 && !(await row.evaluate((b) => b === document.activeElement)); i++) {
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#diff').textContent()).toContain('--fail-on-warnings');
    expect(await row.getAttribute('aria-current')).toBe('true');
    expect(await page.locator('#diff').evaluate((d) => d.getBoundingClientRect().top < innerHeight)).toBe(
      true,
    );
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('what the page says, for the keyboard and a screen reader', () => {
  it('announces the save state and the apply result (status regions); Escape dismisses the notice', async () => {
    const dir = initProject();
    writeFileSync(join(dir, '.sync.yml'), 'pdk_template:\n  templates: [a\n');
    const server = await startUi({ root: dir });
    ui.servers.push(server);
    const page = await ui.browser.newPage({ viewport: { width: 600, height: 900 } });
    await page.goto(server.url);
    await expect.poll(() => page.locator('#notice').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(await page.locator('#save-state').getAttribute('role')).toBe('status');
    expect(await page.locator('#apply-result').getAttribute('role')).toBe('status');
    await page.close();
  });
});

describe('a .sync.yml with CRLF line ends (QA qa21, L1)', () => {
  it('keeps CRLF through every edit of the page: a setting, a reset, Add', async () => {
    const dir = initProject();
    const text = `${sync(dir)}puppet_lint:\n  relative: false   # mine\n`.replace(/\n/g, '\r\n');
    writeFileSync(join(dir, '.sync.yml'), text);
    const { page, errors } = await open(dir);
    await page.locator('#setting-puppet_lint-fail_on_warnings').uncheck();
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('.field[data-setting="relative"] button.reset').click();
    await expect.poll(() => page.locator('.field[data-setting="relative"] button.reset').count()).toBe(0);
    await page.locator('#catalogue button[data-template="rubocop"]').click();
    await page.waitForSelector('fieldset[data-template="rubocop"]');
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    const saved = sync(dir);
    expect(saved).toBe(
      text
        .replace('templates: []', 'templates: [rubocop]')
        .replace('  relative: false   # mine\r\n', '  fail_on_warnings: false\r\n'),
    );
    expect(saved.replace(/\r\n/g, '')).not.toContain('\n');
    expect(errors).toEqual([]);
    await page.close();
  });
});
