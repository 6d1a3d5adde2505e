/**
 * The author's view of `pantograph ui` as an author meets it, in a narrow window with the keyboard: a CRLF
 * template file stays CRLF through the page's saves (a browser's text field gives LF), a render error of
 * the file open is said as `pantograph test` says it and is a button to its place, and the case's outcome
 * is said under the editor. Debian's chromium on a repository made by `pantograph new template`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLineEnds } from '../../src/ui/author-api.js';
import { cli, newTemplateRepository, openUi, uiSession } from '../helpers/ui-pages.js';

const ui = uiSession();

/** A template repository with one template, `greet` (files/example.epp, tests/basic). */
const repository = () => newTemplateRepository('ui-author-', 'greet');

/** The author's view on `repo` in a narrow window. */
const open = (repo: string) => openUi(ui, repo, { author: true, width: 600 });

describe("the author's view", () => {
  it("saves a CRLF template file with CRLF line ends (a browser's text field gives LF)", async () => {
    const repo = repository();
    const file = join(repo, 'greet/files/example.epp');
    const crlf = readFileSync(file, 'utf8').replace(/\r?\n/g, '\r\n');
    writeFileSync(file, crlf);
    const { page, errors } = await open(repo);
    await page.locator('li.author-file[data-source="files/example.epp"] button').click();
    const editor = page.locator('#author-editor');
    await expect.poll(() => editor.isEnabled()).toBe(true);
    await editor.press('Control+End');
    await editor.pressSequentially('# by the author\n');
    await expect.poll(() => readFileSync(file, 'utf8')).toBe(`${crlf}# by the author\r\n`);
    // Saved again from the base the last save gave: the page goes on saving.
    await editor.pressSequentially('# more\n');
    await expect.poll(() => readFileSync(file, 'utf8')).toBe(`${crlf}# by the author\r\n# more\r\n`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a file that mixes line ends, or is LF, is saved as the page sends it', () => {
    expect(withLineEnds('a\nb\n', 'x\r\ny\r\n')).toBe('a\r\nb\r\n');
    expect(withLineEnds('a\nb\n', 'x\r\ny\n')).toBe('a\nb\n');
    expect(withLineEnds('a\nb\n', 'x\ny\n')).toBe('a\nb\n');
    expect(withLineEnds('a\r\nb\n', 'x\r\ny\r\n')).toBe('a\r\nb\n');
  });

  it('says a render error as `pantograph test` does, under the editor too; its place is a button that puts the cursor there', async () => {
    const repo = repository();
    const { page, errors } = await open(repo);
    const fileButton = page.locator('li.author-file[data-source="files/example.epp"] button');
    await fileButton.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('passed');
    expect(await fileButton.getAttribute('aria-current')).toBe('true');
    expect(await page.locator('#author-summary').textContent()).toBe('test basic: passed');
    const editor = page.locator('#author-editor');
    await editor.press('Control+End');
    await editor.pressSequentially('<%= $nope %>');
    // As the author types, the page saves and runs the case: a half-typed tag fails first. Wait for the
    // whole tag saved and its own error shown.
    await expect
      .poll(() => readFileSync(join(repo, 'greet/files/example.epp'), 'utf8'))
      .toContain('<%= $nope %>');
    await expect
      .poll(() => page.locator('#author-result p.error').first().textContent(), { timeout: 15_000 })
      .toContain("Unknown variable: '$nope'");
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('failed');
    const test = cli(repo, 'test');
    const said = (test.stdout + test.stderr).split('\n').find((l) => l.includes('EPP_UNKNOWN_VARIABLE'))!;
    expect(said).toMatch(
      /^greet\/files\/example\.epp:\d+:5: error: Unknown variable: '\$nope' \[EPP_UNKNOWN_VARIABLE\]$/,
    );
    const problem = page.locator('#author-result p.error');
    expect(await problem.textContent()).toMatch(new RegExp(`^${literal(said)}hint: `));
    expect(await page.locator('#author-summary').textContent()).toBe(
      "test basic: failed (Unknown variable: '$nope')",
    );
    // Enter on the place: the cursor at `$nope`, the keyboard in the editor.
    await problem.locator('button.go').focus();
    await page.keyboard.press('Enter');
    const at = await editor.evaluate((e) => {
      const area = e as unknown as { selectionStart: number; value: string };
      return area.value.slice(area.selectionStart, area.selectionStart + 5);
    });
    expect(at).toBe('$nope');
    expect(await editor.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('has Strict variables as the playground does: unticked, an unknown variable renders empty with a warning', async () => {
    const repo = repository();
    const { page, errors } = await open(repo);
    const strict = page.locator('#author-strict');
    expect(await strict.isChecked()).toBe(true);
    await page.locator('li.author-file[data-source="files/example.epp"] button').click();
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('passed');
    const editor = page.locator('#author-editor');
    await editor.press('Control+End');
    await editor.pressSequentially('[<%= $nope %>]\n');
    const problem = page.locator('#author-result p.error');
    // Polled on the error itself: a run while typing may fail on the half-typed tag first.
    await expect
      .poll(() => problem.first().textContent(), { timeout: 15_000 })
      .toMatch(/error: Unknown variable: '\$nope' \[EPP_UNKNOWN_VARIABLE\]/);
    expect(await page.locator('#author-status').textContent()).toBe('failed');
    // The hint names the page's control, not the command line's option.
    expect(await problem.locator('.hint').textContent()).toBe(
      'hint: pass it as a value, assign it before use, or untick Strict variables, above the case (it then renders empty, with a warning, as `pantograph test --no-strict`)',
    );
    // Unticked: as `pantograph test --no-strict`, the output has the variable empty, and a warning says why.
    await strict.uncheck();
    await expect
      .poll(() => problem.first().textContent(), { timeout: 15_000 })
      .toMatch(
        /^greet\/files\/example\.epp:12:6: warning: Unknown variable: 'nope'\. \[EPP_UNKNOWN_VARIABLE\]/,
      );
    const actual = page.locator('.side-by-side[data-path="example"] pre.actual');
    expect(await actual.textContent()).toContain('[]\n');
    // The same warning, at the same place, as the command line says it.
    const test = cli(repo, 'test', '--no-strict');
    expect(test.stdout + test.stderr).toContain(
      "greet/files/example.epp:12:6: warning: Unknown variable: 'nope'. [EPP_UNKNOWN_VARIABLE]",
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists the hooks and the schema the guide has an author write: a hook edited here runs in the case, its error a button to its line', async () => {
    const repo = repository();
    mkdirSync(join(repo, 'greet/hooks'));
    const hook = join(repo, 'greet/hooks/after_project_settings.pp');
    writeFileSync(hook, '# derive the greeting\n$state\n');
    const { page, errors } = await open(repo);
    const sources = await page
      .locator('li.author-file[data-template="greet"]')
      .evaluateAll((items) =>
        items.map((li) => (li as unknown as { dataset: { source: string } }).dataset.source),
      );
    expect(sources).toEqual([
      'files/example.epp',
      'partials/signature.epp',
      'hooks/after_project_settings.pp',
      'template_schema.json',
      'template.json',
    ]);
    await page.locator('li.author-file[data-source="hooks/after_project_settings.pp"] button').click();
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('passed');
    const editor = page.locator('#author-editor');
    await editor.fill(
      "# derive the greeting\n$state + { 'settings' => $state['settings'] + { 'greeting' => '' } }\n",
    );
    await expect.poll(() => readFileSync(hook, 'utf8')).toContain("'greeting' => ''");
    const problem = page.locator('#author-result p.error');
    await expect
      .poll(() => problem.first().textContent(), { timeout: 15_000 })
      .toMatch(
        /^greet\/hooks\/after_project_settings\.pp:2:49: error: greet: hook after_project_settings sets setting 'greeting' to "", which its schema refuses: must be at least 1 character long \[SETTINGS_INVALID\]/,
      );
    expect(await page.locator('#author-status').textContent()).toBe('failed');
    // As the command line says it.
    const test = cli(repo, 'test');
    expect(test.stdout + test.stderr).toContain(
      `greet/hooks/after_project_settings.pp:2:49: error: greet: hook after_project_settings sets setting 'greeting' to "", which its schema refuses`,
    );
    // Its place is a button: the cursor at the setting's name in the hook.
    await problem.first().locator('button.go').click();
    const at = await editor.evaluate((e) => {
      const area = e as unknown as { selectionStart: number; value: string };
      return area.value.slice(area.selectionStart, area.selectionStart + 10);
    });
    expect(at).toBe("'greeting'");
    expect(errors).toEqual([]);
    await page.close();
  });

  it('edits template.json safely: a save that would not load is refused at its line, the page keeps the last good template', async () => {
    const repo = repository();
    const file = join(repo, 'greet/template.json');
    const good = readFileSync(file, 'utf8');
    const { page, errors } = await open(repo);
    await page.locator('li.author-file[data-source="template.json"] button').click();
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('passed');
    const editor = page.locator('#author-editor');
    const notSaved = page.locator('#author-not-saved');
    const refusal = page.locator('#author-saved p.error:not(#author-not-saved)');

    // Half typed: does not parse. Refused, with the error at its line, as a button to it.
    await editor.fill(good.replace('"greeting": "Hello",', '"greeting": "Hel'));
    await expect
      .poll(() => notSaved.textContent())
      .toBe('not saved: greet/template.json was not saved: it has an error, and the template would not load');
    expect(await refusal.textContent()).toMatch(
      /^greet\/template\.json:7:21: error: invalid JSON: .* \[TEMPLATE_JSON\]$/,
    );
    expect(readFileSync(file, 'utf8')).toBe(good);
    // The page still has the template: its files, and its case as last run.
    expect(await page.locator('li.author-file[data-template="greet"]').count()).toBe(4);
    expect(await page.locator('#author-status').textContent()).toBe('passed');
    await refusal.locator('button.go').click();
    const cursorLine = () =>
      editor.evaluate((e) => {
        const area = e as unknown as { selectionStart: number; value: string };
        return area.value.slice(0, area.selectionStart).split('\n').length;
      });
    expect(await cursorLine()).toBe(7);

    // Parses, but the template.json schema refuses it: refused at the key, with the did-you-mean.
    await editor.fill(good.replace('"default_settings"', '"defaults_settings"'));
    await expect
      .poll(() => refusal.textContent())
      .toBe(
        "greet/template.json:6:3: error: unknown key 'defaults_settings' in template.json [TEMPLATE_INVALID]hint: did you mean 'default_settings'?",
      );
    expect(readFileSync(file, 'utf8')).toBe(good);

    // Fixed: saved, and the case runs with it.
    await editor.fill(good.replace('"Hello"', '"Hi"'));
    await expect.poll(() => readFileSync(file, 'utf8')).toBe(good.replace('"Hello"', '"Hi"'));
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('failed');
    expect(await notSaved.count()).toBe(0);
    const test = cli(repo, 'test');
    expect(test.status).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps a refused template.json edit when another file opens: marked, named, shown again with why, and leaving asks', async () => {
    const repo = repository();
    const file = join(repo, 'greet/template.json');
    const good = readFileSync(file, 'utf8');
    const { page, errors } = await open(repo);
    const manifest = page.locator('li.author-file[data-source="template.json"] button');
    await manifest.click();
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('passed');
    const editor = page.locator('#author-editor');
    const notSaved = page.locator('#author-not-saved');
    const halfTyped = good.replace('"greeting": "Hello",', '"greeting": "Hel');
    await editor.fill(halfTyped);
    await expect.poll(() => notSaved.count()).toBe(1);

    // Another file opens at once (no pause): the refused text is kept, and said to be.
    await page.locator('li.author-file[data-source="files/example.epp"] button').click();
    await expect.poll(() => page.locator('#author-file').textContent()).toBe('greet/files/example.epp');
    expect(await editor.inputValue()).toBe(readFileSync(join(repo, 'greet/files/example.epp'), 'utf8'));
    expect(await manifest.textContent()).toBe('template.json (not saved)');
    expect(await page.locator('#author-drafts').textContent()).toBe(
      'Not saved, kept on this page: greet/template.json. Open it to fix it; leaving the page loses it.',
    );
    expect(readFileSync(file, 'utf8')).toBe(good);

    // Leaving the page asks first, though the file open has no edit.
    const dialogs: string[] = [];
    page.once('dialog', (d) => {
      dialogs.push(d.type());
      void d.dismiss(); // stay
    });
    await page.reload({ timeout: 2000 }).catch(() => undefined);
    await expect.poll(() => dialogs).toEqual(['beforeunload']);

    // Opened again: the text as typed, and why it is not saved, at its line.
    await manifest.click();
    await expect.poll(() => editor.inputValue()).toBe(halfTyped);
    await expect
      .poll(() => notSaved.textContent())
      .toBe('not saved: greet/template.json was not saved: it has an error, and the template would not load');
    expect(await page.locator('#author-saved p.error:not(#author-not-saved)').textContent()).toMatch(
      /^greet\/template\.json:7:21: error: invalid JSON: .* \[TEMPLATE_JSON\]$/,
    );
    expect(readFileSync(file, 'utf8')).toBe(good);

    // Fixed: saved, and no longer kept.
    await editor.fill(good.replace('"Hello"', '"Hi"'));
    await expect.poll(() => readFileSync(file, 'utf8')).toBe(good.replace('"Hello"', '"Hi"'));
    await expect.poll(() => manifest.textContent()).toBe('template.json');
    expect(await page.locator('#author-drafts').textContent()).toBe('');
    expect(errors).toEqual([]);
    await page.close({ runBeforeUnload: false });
  });

  it("keeps an edit refused for a change on disk across a switch, and never saves it over the editor's save", async () => {
    const repo = repository();
    const file = join(repo, 'greet/files/example.epp');
    const { page, errors } = await open(repo);
    const example = page.locator('li.author-file[data-source="files/example.epp"] button');
    await example.click();
    const editor = page.locator('#author-editor');
    await expect.poll(() => editor.isEnabled()).toBe(true);
    const editorSave = `${readFileSync(file, 'utf8')}<%# the other editor's line %>\n`;
    writeFileSync(file, editorSave);
    await editor.press('Control+End');
    await editor.pressSequentially('# mine');
    await expect.poll(() => page.locator('#author-reload').count()).toBe(1);
    const mine = await editor.inputValue();
    // Switched away and back: the page's text again, still refused (its base is the file as first loaded).
    await page.locator('li.author-file[data-source="template.json"] button').click();
    await expect.poll(() => page.locator('#author-file').textContent()).toBe('greet/template.json');
    expect(await example.textContent()).toBe('files/example.epp (not saved)');
    await example.click();
    await expect.poll(() => editor.inputValue()).toBe(mine);
    await expect
      .poll(() => page.locator('#author-saved').textContent())
      .toMatch(/^not saved: greet\/files\/example\.epp was changed on disk after this page opened it/);
    expect(readFileSync(file, 'utf8')).toBe(editorSave);
    // Reload drops the page's edits, as its hint says, and starts from the editor's save.
    await page.locator('#author-reload').click();
    await expect.poll(() => editor.inputValue()).toBe(editorSave);
    expect(await example.textContent()).toBe('files/example.epp');
    expect(readFileSync(file, 'utf8')).toBe(editorSave);
    expect(errors).toEqual([]);
    await page.close({ runBeforeUnload: false });
  });

  it('saves a template.json whose `requires` leaves this Pantograph out, and says what that means and what to do', async () => {
    const repo = repository();
    const file = join(repo, 'greet/template.json');
    const good = readFileSync(file, 'utf8');
    const { page, errors } = await open(repo);
    await page.locator('li.author-file[data-source="template.json"] button').click();
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('passed');
    const wanted = good.replace('"tags": [],', '"tags": [],\n  "requires": ">=99.0.0",');
    await page.locator('#author-editor').fill(wanted);
    // Written: the template loads (a range for a later Pantograph is the author's to choose).
    await expect.poll(() => readFileSync(file, 'utf8')).toBe(wanted);
    const version = cli(repo, '--version').stdout.trim();
    await expect
      .poll(() => page.locator('#author-saved-warning').textContent())
      .toBe(
        `greet/template.json is saved, but its requires leaves out this Pantograph (${version}): no project can apply the template with this Pantograph, and its test cases fail here`,
      );
    expect(await page.locator('#author-saved p.warning:not(#author-saved-warning)').textContent()).toBe(
      `greet/template.json:6:15: warning: template 'greet' requires Pantograph >=99.0.0; this is Pantograph ${version} [TEMPLATE_REQUIRES]hint: if the template works with Pantograph ${version}, widen the range to include it; else test it with a Pantograph the range allows (the file is saved as you wrote it)`,
    );
    expect(await page.locator('#author-not-saved').count()).toBe(0);
    // The case says it as `pantograph test` does, which fails on it.
    await expect.poll(() => page.locator('#author-status').textContent()).toBe('failed');
    const test = cli(repo, 'test');
    expect(test.status).toBe(1);
    expect(test.stdout + test.stderr).toContain(
      `greet/template.json:6:15: error: template 'greet' requires Pantograph >=99.0.0; this is Pantograph ${version} [TEMPLATE_REQUIRES]`,
    );
    expect(errors).toEqual([]);
    await page.close();
  });

  it('starts with Strict variables unticked under `ui --no-strict`', async () => {
    const repo = repository();
    const { page, errors } = await openUi(ui, repo, { author: true, width: 600, strict: false });
    expect(await page.locator('#author-strict').isChecked()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The page's document, as page.evaluate reaches it in the browser. */
declare const document: { activeElement: unknown };
