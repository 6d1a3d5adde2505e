/**
 * Session 33: a `.sync.yml` whose plan has an error (a setting of the wrong type, written in an editor) as
 * the project page meets it. Found: the setting's field looked fine (the error only in the list under
 * Save, below a long form), the preview pane was blank, Apply was enabled, and its click said
 * "not applied: " and nothing more, where `pantograph apply` says "1 error in the plan: nothing was
 * written". Debian's chromium on a project made by `pantograph init`; the command line on the same file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotDir } from '../helpers/fs.js';
import { cli, initProject, openUi, uiSession } from '../helpers/ui-pages.js';

const ui = uiSession();

/** rubocop applied with `selected_profile: 12` (the schema takes a text or a boolean), at 5:21. */
function projectWithWrongSetting(): string {
  const dir = initProject('ui-plan-errors-', 'acme-planerrors');
  const text = 'pdk_template:\n  version: 2\n  templates: [rubocop]\nrubocop:\n  selected_profile: 12\n';
  writeFileSync(join(dir, '.sync.yml'), text);
  return dir;
}

describe('a plan with an error, on the page', () => {
  it('says the error at its field with its place in .sync.yml, says there is no preview, and keeps Apply and Save off', async () => {
    const dir = projectWithWrongSetting();
    const before = snapshotDir(dir);
    // What the command line says of the same file: where, and that nothing was written.
    const validate = cli(dir, 'validate');
    expect(validate.stdout + validate.stderr).toContain(
      ".sync.yml:5:21: error: rubocop: setting 'selected_profile' must be a string or true or false [SETTINGS_INVALID]",
    );
    const apply = cli(dir, 'apply');
    expect(apply.status).toBe(1);
    expect(apply.stderr).toContain('1 error in the plan: nothing was written');

    const { page, errors } = await openUi(ui, dir, { wait: '#forms fieldset' });
    const field = page.locator('fieldset[data-template="rubocop"] > .field[data-setting="selected_profile"]');
    await expect.poll(() => field.getAttribute('class')).toBe('field invalid');
    expect(await field.locator('.error').textContent()).toBe(
      ".sync.yml:5:21: rubocop: setting 'selected_profile' must be a string or true or false",
    );
    await expect
      .poll(() => page.locator('#counts').textContent())
      .toBe('no preview: 1 error in the plan (listed under Settings): fix it to apply');
    expect(await page.locator('#apply').isDisabled()).toBe(true);
    expect(await page.locator('#save').isDisabled()).toBe(true);
    expect(await page.locator('#save-state').textContent()).toBe('1 setting has an error: fix it to save');

    // Fixed at the field: the error goes, the preview comes, Apply is on.
    await field.locator('textarea').fill('"strict"');
    await expect.poll(() => field.getAttribute('class')).toBe('field');
    await expect.poll(() => page.locator('#apply').isDisabled()).toBe(false);
    expect(await page.locator('#counts').textContent()).toMatch(/^\d+ create/);
    expect(errors).toEqual([]);
    expect(snapshotDir(dir)).toEqual(before);
  }, 60_000);

  it("refuses an apply or a save of it over HTTP with apply's words and the problems at their places, nothing written", async () => {
    const dir = projectWithWrongSetting();
    const before = snapshotDir(dir);
    const { page, server } = await openUi(ui, dir, { wait: '#forms fieldset' });
    const syncText = readFileSync(join(dir, '.sync.yml'), 'utf8');
    const post = (path: string, body: object) =>
      page.evaluate(
        async ([p, b, token]) => {
          const r = await fetch(`/api/${p}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-pantograph-token': token },
            body: JSON.stringify(b),
          });
          return { status: r.status, body: await r.json() };
        },
        [path, body, server.token] as const,
      );
    const { base } = (await post('state', {})).body as { base: string };
    const problem = {
      severity: 'error',
      code: 'SETTINGS_INVALID',
      message: "rubocop: setting 'selected_profile' must be a string or true or false",
      file: '.sync.yml',
      line: 5,
      column: 21,
    };
    const applied = await post('apply', { syncText, base });
    expect(applied.status).toBe(422);
    expect(applied.body).toEqual({
      ok: false,
      message: '1 error in the plan: nothing was written',
      problems: [problem],
    });
    const saved = await post('save', { syncText: `${syncText}# edited\n`, base });
    expect(saved.status).toBe(422);
    expect(saved.body).toEqual({
      saved: false,
      error: '1 error in the plan: nothing was written',
      problems: [problem],
    });
    expect(snapshotDir(dir)).toEqual(before);
  }, 60_000);
});
