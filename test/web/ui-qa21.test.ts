/**
 * The web interface as QA review qa21 found it wanting, each case in Debian's chromium on a project made
 * by `pantograph init`, as the page's user meets it: what reaches `.sync.yml` and the files, what the page
 * says. One server per project (each test makes its own), one browser.
 */
import { chmodSync, cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotDir, tempDir } from '../helpers/fs.js';
import {
  cli,
  initProject as makeProject,
  newTemplateRepository,
  type OpenedPage,
  openUi,
  uiSession,
} from '../helpers/ui-pages.js';

const session = uiSession();
const initProject = () => makeProject('ui-qa21-', 'acme-qa');
/** The page on `dir`, loaded; its page errors collected. */
const open = (dir: string, options: { author?: boolean; wait?: string } = {}) =>
  openUi(session, dir, options);

const sync = (dir: string) => readFileSync(join(dir, '.sync.yml'), 'utf8');

/**
 * Once the page has taken the last edit (its text differs from the saved one) and shows that text's
 * preview: then Apply is enabled for it. Apply is enabled before the edit is taken too, for the text before
 * it, and a click then is refused ("the preview of your last change is not shown yet"), as it should be.
 */
async function previewShown(page: OpenedPage['page']): Promise<void> {
  await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
  await expect.poll(() => page.locator('#apply').isEnabled()).toBe(true);
}

describe('settings of a template with a nested object (QA H1)', () => {
  it("edits rakefile's settings (its schema has a nested object): the typed value reaches .sync.yml and the apply", async () => {
    const dir = initProject();
    const { page, errors } = await open(dir);
    const rakefile = page.locator('fieldset[data-template="rakefile"]');
    await rakefile.locator(':scope > .field[data-setting="imports"] textarea').fill('tasks/extra.rake');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    // A property of the nested object, too.
    await rakefile
      .locator(
        ':scope > .field[data-setting="puppet_lint_config"] .field[data-property="fail_on_warnings"] input',
      )
      .uncheck();
    const rakefileRow = page.locator('#files li', { hasText: 'Rakefile' });
    await expect.poll(() => rakefileRow.textContent()).toContain('changed');
    await expect
      .poll(async () => {
        await rakefileRow.click();
        return page.locator('#diff').textContent();
      })
      .toContain('fail_on_warnings = false');
    const importsOrigin = rakefile.locator(':scope > .field[data-setting="imports"] > .origin');
    expect(await importsOrigin.textContent()).toContain('value from this page (.sync.yml once saved)');
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    // Saved: the field no longer says its value waits for a save.
    expect(await importsOrigin.textContent()).toContain('value from .sync.yml (saved from this page)');
    expect(sync(dir)).toMatch(
      /rakefile:\n\s+imports:\n\s+- tasks\/extra\.rake\n\s+puppet_lint_config:\n\s+fail_on_warnings: false\n/,
    );
    await expect.poll(() => page.locator('#apply').isEnabled()).toBe(true);
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#apply-result').textContent()).toMatch(/^Changed/);
    const rakefileText = readFileSync(join(dir, 'Rakefile'), 'utf8');
    expect(rakefileText).toContain("import 'tasks/extra.rake'");
    expect(rakefileText).toContain('PuppetLint.configuration.fail_on_warnings = false');
    expect(cli(dir, 'status', '--check').status).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('the page edits .sync.yml as `pantograph add template` does (QA H2, M5)', () => {
  it('keeps `!replace` and its comment when a list is edited, and says at the field that the list replaces', async () => {
    const dir = initProject();
    const text =
      'pdk_template:\n  version: 2\n  templates: []\npuppet_lint:\n  disabled_checks: !replace [140chars]   # only this\n  fail_on_warnings: yes\n';
    writeFileSync(join(dir, '.sync.yml'), text);
    const { page, errors } = await open(dir);
    const field = page.locator(
      'fieldset[data-template="puppet_lint"] > .field[data-setting="disabled_checks"]',
    );
    expect(await field.locator('.replace').textContent()).toContain('!replace');
    await field.locator('textarea').fill('140chars\ndocumentation');
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toBe(text.replace('[140chars]', '[140chars, documentation]'));
    const show = cli(dir, '--format', 'json', 'show', 'puppet_lint');
    const setting = (
      JSON.parse(show.stdout) as { settings: { name: string; value: unknown }[] }
    ).settings.find((s) => s.name === 'disabled_checks');
    expect(setting?.value).toEqual(['140chars', 'documentation']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("Add and Remove keep the list's style and comments, as `pantograph add template` does", async () => {
    const dir = initProject();
    const start = 'pdk_template:\n  version: 2\n  templates: [rubocop]   # opt-ins\n';
    writeFileSync(join(dir, '.sync.yml'), start);
    const { page, errors } = await open(dir);
    await page.locator('#catalogue button[data-template="editorconfig"]').click();
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    const cliCopy = join(tempDir('ui-qa21-cli-'), 'm');
    cpSync(dir, cliCopy, { recursive: true });
    writeFileSync(join(cliCopy, '.sync.yml'), start);
    expect(cli(cliCopy, 'add', 'template', 'editorconfig').status).toBe(0);
    expect(sync(dir)).toBe(sync(cliCopy));
    expect(sync(dir)).toBe('pdk_template:\n  version: 2\n  templates: [rubocop, editorconfig]   # opt-ins\n');
    // Remove from a block list: the entry that stays keeps its comment.
    await page.close();
    writeFileSync(
      join(dir, '.sync.yml'),
      'pdk_template:\n  version: 2\n  templates:\n    - rubocop\n    - editorconfig   # editors\n',
    );
    const again = await open(dir);
    await again.page.locator('#catalogue button[data-template="rubocop"]').click();
    await expect.poll(() => again.page.locator('#save').isEnabled()).toBe(true);
    await again.page.locator('#save').click();
    await expect.poll(() => again.page.locator('#save-state').textContent()).toBe('saved');
    expect(sync(dir)).toBe('pdk_template:\n  version: 2\n  templates:\n    - editorconfig   # editors\n');
    expect([...errors, ...again.errors]).toEqual([]);
    await again.page.close();
  });
});

describe('writes keep modes, and the author view keeps an editor’s save (QA H4, M3, M4)', () => {
  /** A template repository with `greet`, its file executable. */
  function repository(): { repo: string; file: string } {
    const repo = newTemplateRepository('ui-qa21-author-', 'greet');
    const file = join(repo, 'greet', 'files', 'example.epp');
    chmodSync(file, 0o755);
    return { repo, file };
  }

  async function openFile(repo: string): Promise<OpenedPage> {
    const opened = await open(repo, { author: true, wait: '.author-file' });
    await opened.page.locator('.author-file[data-source="files/example.epp"]').click();
    await expect.poll(() => opened.page.locator('#author-editor').isEnabled()).toBe(true);
    return opened;
  }

  it("saves a template file's text, not its mode: an executable template stays executable", async () => {
    const { repo, file } = repository();
    const { page, errors } = await openFile(repo);
    await page.locator('#author-editor').press('End');
    await page.locator('#author-editor').pressSequentially('# more');
    // Typing saves as it goes: "saved" shows after an early save (`# mor`) too, so wait for the last one.
    await expect.poll(() => readFileSync(file, 'utf8')).toContain('# more');
    await expect.poll(() => page.locator('#author-saved').textContent()).toMatch(/^saved /);
    expect(statSync(file).mode & 0o777).toBe(0o755);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses to save over a file changed on disk since the page loaded it, says so, and reloads it on request', async () => {
    const { repo, file } = repository();
    const { page, errors } = await openFile(repo);
    const editorSave = `${readFileSync(file, 'utf8')}<%# the other editor's line %>\n`;
    writeFileSync(file, editorSave);
    await page.locator('#author-editor').press('End');
    await page.locator('#author-editor').pressSequentially('x');
    await expect
      .poll(() => page.locator('#author-saved').textContent())
      .toMatch(/^not saved: greet\/files\/example\.epp was changed on disk after this page opened it/);
    expect(readFileSync(file, 'utf8')).toBe(editorSave);
    await page.locator('#author-reload').click();
    await expect.poll(() => page.locator('#author-editor').inputValue()).toBe(editorSave);
    await page.locator('#author-editor').press('End');
    await page.locator('#author-editor').pressSequentially('y');
    await expect.poll(() => readFileSync(file, 'utf8')).toBe(`${editorSave}y`);
    await expect.poll(() => page.locator('#author-saved').textContent()).toMatch(/^saved /);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("keeps .sync.yml's mode on Save and Apply (a 0600 file holding a token stays 0600)", async () => {
    const dir = initProject();
    chmodSync(join(dir, '.sync.yml'), 0o600);
    const { page, errors } = await open(dir);
    await page
      .locator('fieldset[data-template="rakefile"] > .field[data-setting="imports"] textarea')
      .fill('tasks/a.rake');
    await expect.poll(() => page.locator('#save').isEnabled()).toBe(true);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(statSync(join(dir, '.sync.yml')).mode & 0o777).toBe(0o600);
    await page
      .locator('fieldset[data-template="rakefile"] > .field[data-setting="imports"] textarea')
      .fill('tasks/b.rake');
    await previewShown(page);
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#apply-result').textContent()).toMatch(/^Changed/);
    expect(sync(dir)).toContain('tasks/b.rake');
    expect(statSync(join(dir, '.sync.yml')).mode & 0o777).toBe(0o600);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a project that does not load, warnings, and the page without its token (QA H5, M6, M10)', () => {
  it('shows why .sync.yml does not load, with file:line:col and the hint, and reloads it once fixed', async () => {
    const dir = initProject();
    const good = sync(dir);
    writeFileSync(join(dir, '.sync.yml'), 'pdk_template:\n  version: 2\n  templates: [a, b\n');
    const status = cli(dir, 'status');
    expect(status.stderr).toMatch(/\.sync\.yml:4:1: error: /);
    const { page, errors } = await open(dir, { wait: '#notice:not([hidden])' });
    expect(await page.locator('#notice-text').textContent()).toMatch(/^the project does not load: /);
    const problem = page.locator('#problems li.error').first();
    expect(await problem.textContent()).toMatch(/^\.sync\.yml:4:1: error: .*\[SYNC_YAML\]/);
    // Fixed in an editor: Reload reads it again.
    writeFileSync(join(dir, '.sync.yml'), good);
    await page.locator('#reload').click();
    await page.waitForSelector('#files li');
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(await page.locator('#problems li').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a produced file listed in delete at its place in .sync.yml, as validate does', async () => {
    const dir = initProject();
    writeFileSync(join(dir, '.sync.yml'), `${sync(dir)}  delete: [.yardopts]\n`);
    const { page, errors } = await open(dir, { wait: '#problems li.error' });
    const shown = (await page.locator('#problems li.error').allTextContents()).join('\n');
    expect(shown).toMatch(/^\.sync\.yml:\d+:\d+: error: .*\.yardopts.*\[SYNC_DELETE_PRODUCED\]/m);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists warnings beside errors, with hints, as `validate` prints them (the warning explains the error)', async () => {
    const dir = initProject();
    writeFileSync(
      join(dir, '.sync.yml'),
      'pdk_template:\n  version: 2\n  templates: []\nrubocop:\n  profile: strict\nyardopts:\n  markup: no\n',
    );
    const { page, errors } = await open(dir, { wait: '#problems li.warning' });
    const warnings = await page.locator('#problems li.warning').allTextContents();
    expect(warnings.join('\n')).toMatch(
      /^\.sync\.yml:7:11: warning: `no` is read as "false" .*\[SYNC_AMBIGUOUS_SCALAR\]hint: /m,
    );
    expect(warnings.join('\n')).toContain("template 'rubocop', which is not applied");
    expect(await page.locator('#problems li.error').first().textContent()).toMatch(
      /^\.sync\.yml:7:11: error: /,
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says what to do when opened without its token (a bookmark), and a wrong -C is refused at the start', async () => {
    const dir = initProject();
    const { page, server, errors } = await open(dir);
    const bare = await session.browser.newPage();
    await bare.goto(`http://127.0.0.1:${server.port}/`);
    await bare.waitForSelector('#notice:not([hidden])');
    expect(await bare.locator('#notice-text').textContent()).toContain('open the URL it printed');
    await bare.close();
    await page.close();
    expect(errors).toEqual([]);
    const empty = tempDir('ui-qa21-empty-');
    const ui = cli(empty, 'ui');
    expect(ui.status).toBe(1);
    expect(ui.stderr).toMatch(
      /^error: no \.sync\.yml in .* \[SYNC_NOT_FOUND\]\n {2}hint: run `pantograph init`/,
    );
  });
});

describe("Apply from the page is the command line's apply (QA M2, M7)", () => {
  it('refuses a file it never wrote that differs, as `apply` does, writing nothing; asks, and overwrites once confirmed', async () => {
    const dir = initProject();
    writeFileSync(join(dir, '.editorconfig'), '# mine\n');
    expect(cli(dir, 'add', 'template', 'editorconfig').status).toBe(0);
    const cliCopy = join(tempDir('ui-qa21-cli-'), 'm');
    cpSync(dir, cliCopy, { recursive: true });
    const byCli = cli(cliCopy, 'apply');
    expect(byCli.status).toBe(1);
    expect(byCli.stderr).toContain('nothing was written');
    const { page, errors } = await open(dir);
    const before = snapshotDir(dir);
    await expect.poll(() => page.locator('#apply').isEnabled()).toBe(true);
    const dialogs: string[] = [];
    page.once('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.locator('#apply').click();
    await expect
      .poll(() => page.locator('#apply-result').textContent())
      .toMatch(
        /^not applied: kept \.editorconfig as it is \(Pantograph never wrote it; the template's output differs\): nothing was written$/,
      );
    expect(dialogs[0]).toContain('.editorconfig');
    expect(snapshotDir(dir)).toEqual(before);
    expect(snapshotDir(dir)).toEqual(snapshotDir(cliCopy));
    // Confirmed: written, as `apply --yes` writes it.
    page.once('dialog', (d) => void d.accept());
    await expect.poll(() => page.locator('#apply').isEnabled()).toBe(true);
    await page.locator('#apply').click();
    await expect
      .poll(() => page.locator('#apply-result').textContent())
      .toMatch(/^Changed \d+ files?: .*\.editorconfig/);
    expect(cli(cliCopy, 'apply', '--yes').status).toBe(0);
    expect(readFileSync(join(dir, '.editorconfig'), 'utf8')).toBe(
      readFileSync(join(cliCopy, '.editorconfig'), 'utf8'),
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a conflict: says what became of the file, as `apply` does; the keyboard stays at Apply', async () => {
    const dir = initProject();
    expect(cli(dir, 'add', 'template', 'editorconfig').status).toBe(0);
    expect(cli(dir, 'apply').status).toBe(0);
    writeFileSync(join(dir, '.editorconfig'), `${readFileSync(join(dir, '.editorconfig'), 'utf8')}# mine\n`);
    writeFileSync(join(dir, '.sync.yml'), `${sync(dir)}editorconfig:\n  root: false\n`);
    const cliCopy = join(tempDir('ui-qa21-cli-'), 'm');
    cpSync(dir, cliCopy, { recursive: true });
    const byCli = cli(cliCopy, 'apply');
    expect(byCli.stdout).toContain(
      'conflict  .editorconfig: merged cleanly with the new template output: review it',
    );
    const { page, errors } = await open(dir);
    await expect.poll(() => page.locator('#apply').isEnabled()).toBe(true);
    await page.locator('#apply').focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#apply-result > div').allTextContents())
      .toEqual([
        expect.stringMatching(
          /^not applied: 1 conflict: nothing else was written\. Finish each file's merge/,
        ),
        'conflict .editorconfig: merged cleanly with the new template output: review it',
      ]);
    expect(readFileSync(join(dir, '.editorconfig'), 'utf8')).toBe(
      readFileSync(join(cliCopy, '.editorconfig'), 'utf8'),
    );
    // Disabled while it ran, Apply had dropped the focus to the page's start.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toMatch(/^apply(-result)?$/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says which hand-edited files it left alone, and the backups it made with overwrite hand edits', async () => {
    const dir = initProject();
    writeFileSync(join(dir, '.rspec'), `${readFileSync(join(dir, '.rspec'), 'utf8')}--profile\n`);
    const { page, errors } = await open(dir);
    await page
      .locator('fieldset[data-template="rakefile"] > .field[data-setting="imports"] textarea')
      .fill('tasks/a.rake');
    await previewShown(page);
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#apply-result').textContent()).toContain('left alone: .rspec');
    await page.locator('#force').check();
    await page
      .locator('fieldset[data-template="rakefile"] > .field[data-setting="imports"] textarea')
      .fill('tasks/b.rake');
    await previewShown(page);
    await page.locator('#apply').click();
    await expect
      .poll(() => page.locator('#apply-result').textContent())
      .toMatch(/\.rspec had your changes: saved as \.rspec\.pantograph-old/);
    expect(readFileSync(join(dir, '.rspec.pantograph-old'), 'utf8')).toContain('--profile');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('applies once on a double click, and says what it did', async () => {
    const dir = initProject();
    const { page, errors } = await open(dir);
    const applies: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/apply')) applies.push(r.status());
    });
    await page
      .locator('fieldset[data-template="rakefile"] > .field[data-setting="imports"] textarea')
      .fill('tasks/a.rake');
    await previewShown(page);
    await page.locator('#apply').dblclick();
    await expect.poll(() => page.locator('#apply-result').textContent()).toMatch(/^Changed 1 file: Rakefile/);
    await page.waitForTimeout(500);
    expect(applies).toEqual([200]);
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('unsaved edits and the keyboard (QA M8, M9)', () => {
  it('asks before leaving with unsaved edits; the playground opens in a new tab', async () => {
    const dir = initProject();
    const { page, errors } = await open(dir);
    const imports = page.locator(
      'fieldset[data-template="rakefile"] > .field[data-setting="imports"] textarea',
    );
    await imports.click();
    await page.keyboard.type('tasks/a.rake');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    const dialogs: string[] = [];
    page.once('dialog', (d) => {
      dialogs.push(d.type());
      void d.dismiss(); // stay
    });
    await page.reload({ timeout: 2000 }).catch(() => undefined); // dismissed: the navigation does not happen
    await expect.poll(() => dialogs).toEqual(['beforeunload']);
    expect(await imports.inputValue()).toBe('tasks/a.rake');
    expect(await page.locator('#playground-link').getAttribute('target')).toBe('_blank');
    expect(errors).toEqual([]);
    await page.close({ runBeforeUnload: false });
  });

  it('names every setting control by its label, and reaches every diff from the keyboard', async () => {
    const dir = initProject();
    const { page, errors } = await open(dir);
    const unnamed = await page.locator('#forms').evaluate((forms) =>
      [...forms.querySelectorAll('input, select, textarea, fieldset.nested')]
        .filter((c) => {
          const labelled = (c as unknown as { labels?: { length: number } }).labels?.length ?? 0;
          return labelled === 0 && !c.getAttribute('aria-labelledby');
        })
        .map((c) => c.outerHTML.slice(0, 80)),
    );
    expect(unnamed).toEqual([]);
    expect(await page.getByLabel('imports: array of string').count()).toBe(1);
    const row = page.locator('#files li[data-path="Rakefile"] button');
    await row.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('#diff').textContent()).toBe('(no change)');
    expect(await page.locator('#notice-close').getAttribute('aria-label')).toBe('dismiss');
    expect(errors).toEqual([]);
    await page.close();
  });
});

/** The page's document, as page.evaluate reaches it in the browser. */
declare const document: { activeElement: { id: string } | null };
