/**
 * `pantograph ui` writes only what the user saw (found by QA): a save or an apply says which
 * `.sync.yml` the page loaded (`base`) and which preview it showed (`preview`), and is refused, nothing
 * written, when `.sync.yml` was changed on disk since (an editor) or when apply would now write something
 * else (a template changed). Text with errors is refused whole, as the command line refuses it. Each case
 * on a real project and template repository, through the real server; then the page in chromium.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { removeTempDirs, snapshotDir, tempDir, writeTree } from '../helpers/fs.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'dist/cli/bin.cjs');
const shots = join(root, 'test-results', 'screenshots');

const SYNC = `# my project's settings
pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ../repo
  templates: [greet]
`;

let dir: string;
let project: string;
let template: string;
let server: UiServer;

/** A template repository with `greet` (as `pantograph new template` makes it), and a project applying it. */
beforeEach(async () => {
  dir = tempDir('ui-writes-');
  const made = spawnSync(process.execPath, [bin, 'new', 'template', 'greet', '-C', join(dir, 'repo')], {
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(made.stderr);
  template = join(dir, 'repo', 'greet', 'files', 'example.epp');
  project = writeTree(join(dir, 'project'), { '.sync.yml': SYNC });
  server = await startUi({ root: project });
  return () => server.close();
});

afterAll(() => removeTempDirs());

interface Answer {
  status: number;
  json: Record<string, unknown> & {
    base?: string;
    syncText?: string;
    text?: string;
    fingerprint?: string;
    code?: string;
    error?: string;
    hint?: string;
    changed?: string[];
    problems?: { code: string; line?: number; column?: number; severity: string }[];
  };
}

async function call(path: string, body: unknown, on: UiServer = server): Promise<Answer> {
  const r = await fetch(`http://127.0.0.1:${on.port}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pantograph-token': on.token },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Answer['json'] };
}

/** What the page does before Apply: load, change a setting, preview. */
async function pageEdit(greeting: string): Promise<{ base: string; syncText: string; preview: string }> {
  const state = await call('state', {});
  const edit = await call('edit', {
    kind: 'settings',
    template: 'greet',
    settings: { greeting },
    syncText: state.json.syncText,
  });
  const preview = await call('preview', { syncText: edit.json.text });
  expect(preview.status).toBe(200);
  return { base: state.json.base!, syncText: edit.json.text!, preview: preview.json.fingerprint! };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('pantograph ui writes only what the page was based on', () => {
  it('refuses an apply and a save when .sync.yml was changed on disk after the page loaded it: the change is kept', async () => {
    const page = await pageEdit('Hi');
    // Meanwhile, in the user's editor:
    const edited = SYNC.replace('templates: [greet]', 'templates: [greet] # added in my editor');
    writeFileSync(join(project, '.sync.yml'), edited);
    const before = snapshotDir(dir);
    const applied = await call('apply', { ...page, force: false });
    expect(applied.status).toBe(409);
    expect(applied.json).toMatchObject({ ok: false, code: 'SYNC_CHANGED' });
    expect(applied.json.error).toBe(
      '.sync.yml was changed on disk after this page loaded it (in an editor?): nothing was written',
    );
    expect(applied.json.hint).toMatch(/^reload to start from \.sync\.yml as it is now/);
    const saved = await call('save', { syncText: page.syncText, base: page.base });
    expect(saved.status).toBe(409);
    expect(saved.json.code).toBe('SYNC_CHANGED');
    expect(snapshotDir(dir)).toEqual(before);
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(edited);
  });

  it('refuses an apply whose output changed since the preview, naming the file; applies once previewed again', async () => {
    const page = await pageEdit('Hi');
    appendFileSync(template, 'a line the preview never showed\n');
    const before = snapshotDir(dir);
    const refused = await call('apply', { ...page, force: false });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ ok: false, code: 'PREVIEW_CHANGED', changed: ['example'] });
    expect(refused.json.error).toBe(
      'what apply would do changed since the preview (example): nothing was written',
    );
    expect(snapshotDir(dir)).toEqual(before);

    const again = await call('preview', { syncText: page.syncText });
    const applied = await call('apply', { ...page, preview: again.json.fingerprint, force: false });
    expect(applied.status).toBe(200);
    expect(applied.json).toMatchObject({ ok: true, written: ['example'] });
    expect(readFileSync(join(project, 'example'), 'utf8')).toMatch(
      /^Hi, .*\n(.*\n)*a line the preview never showed\n$/,
    );
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(page.syncText);
    // The new base is the file just written: the page's next save or apply is based on it.
    expect(applied.json.base).toBe(sha256(join(project, '.sync.yml')));
  });

  it('refuses a forced apply over a hand edit made after the preview: the edit is kept', async () => {
    // Applied once, then edited by hand: the preview shows the file as `edited`, to be overwritten by force.
    const first = await pageEdit('Hello');
    expect((await call('apply', { ...first, force: false })).status).toBe(200);
    appendFileSync(join(project, 'example'), 'my edit, previewed\n');
    const page = await pageEdit('Hello');
    appendFileSync(join(project, 'example'), 'an edit made after the preview\n');
    const before = snapshotDir(dir);
    const refused = await call('apply', { ...page, force: true });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ ok: false, code: 'PREVIEW_CHANGED', changed: ['example'] });
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('refuses an apply with no preview, or with a preview this server never showed', async () => {
    const page = await pageEdit('Hi');
    const before = snapshotDir(dir);
    const none = await call('apply', { syncText: page.syncText, base: page.base });
    expect(none.status).toBe(409);
    expect(none.json.error).toBe('apply would write what no preview showed: nothing was written');
    const forged = await call('apply', { ...page, preview: 'f'.repeat(64) });
    expect(forged.status).toBe(409);
    expect(forged.json.code).toBe('PREVIEW_CHANGED');
    const missingBase = await call('apply', { syncText: page.syncText, preview: page.preview });
    expect(missingBase.status).toBe(400);
    expect(missingBase.json.error).toMatch(/^base is required/);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('checks .sync.yml again under the run lock: a save made while apply was planning is kept', async () => {
    // A hook that plays the user's editor: saving .sync.yml while the apply's plan is being made, after the
    // request's first check. (A filesystem source is trusted: its JavaScript hooks run.)
    const armed = join(dir, 'armed');
    writeTree(join(dir, 'repo', 'greet', 'hooks'), {
      'after_project_settings.mjs': `import { appendFileSync, existsSync, rmSync } from 'node:fs';
export default (state) => {
  if (existsSync(${JSON.stringify(armed)})) {
    rmSync(${JSON.stringify(armed)});
    appendFileSync(${JSON.stringify(join(project, '.sync.yml'))}, '# saved in my editor meanwhile\\n');
  }
  return state;
};
`,
    });
    const page = await pageEdit('Hi');
    writeFileSync(armed, '');
    const applied = await call('apply', { ...page, force: false });
    expect(applied.status).toBe(409);
    expect(applied.json.code).toBe('SYNC_CHANGED');
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(`${SYNC}# saved in my editor meanwhile\n`);
    expect(snapshotDir(project)).toEqual(
      snapshotDir(
        writeTree(tempDir('ui-writes-expected-'), { '.sync.yml': `${SYNC}# saved in my editor meanwhile\n` }),
      ),
    );
  });

  it('lets one of two applies made from the same page state through, and refuses the other', async () => {
    const a = await pageEdit('Hi');
    const b = await pageEdit('Hey');
    const [ra, rb] = await Promise.all([call('apply', a), call('apply', b)]);
    expect([ra.status, rb.status].sort()).toEqual([200, 409]);
    const winner = ra.status === 200 ? a : b;
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(winner.syncText);
    expect(readFileSync(join(project, 'example'), 'utf8')).toMatch(winner === a ? /^Hi, / : /^Hey, /);
  });

  it('refuses an apply while another run (a `pantograph apply` in a terminal) holds the project, writing nothing', async () => {
    const page = await pageEdit('Hi');
    writeFileSync(join(project, '.pantograph.lock.lck'), `1\n${hostname()}\n`); // pid 1 is alive
    const before = snapshotDir(dir);
    const applied = await call('apply', page);
    expect(applied.status).toBe(409);
    expect(applied.json).toMatchObject({
      code: 'SYNC_LOCKED',
      error: `Another Pantograph run (pid 1 on ${hostname()}) is applying to this project`,
    });
    expect(applied.json.hint).toMatch(/^Wait for it to finish/);
    expect(snapshotDir(dir)).toEqual(before);
  });

  it('refuses settings with errors whole, in apply and in save, with the problems at their positions', async () => {
    const state = await call('state', {});
    const bad = `${SYNC}greet:\n  greeting: ""\n  no_such_setting: 1\n`;
    const before = snapshotDir(dir);
    const applied = await call('apply', { syncText: bad, base: state.json.base, preview: 'x' });
    expect(applied.status).toBe(422);
    const saved = await call('save', { syncText: bad, base: state.json.base });
    expect(saved.status).toBe(422);
    expect(saved.json.saved).toBe(false);
    for (const answer of [applied, saved]) {
      const errors = answer.json.problems!.filter((p) => p.severity === 'error');
      expect(errors.map((p) => [p.code, p.line, p.column])).toEqual([
        ['SETTINGS_INVALID', 9, 13],
        ['SETTINGS_UNKNOWN_KEY', 10, 3],
      ]);
    }
    expect(snapshotDir(dir)).toEqual(before);
    // What the command line says of the file as it is: nothing to fix, nothing was written.
    const validate = spawnSync(process.execPath, [bin, 'validate'], { cwd: project, encoding: 'utf8' });
    expect(validate.status).toBe(0);
  });

  it('saves from its base and gives the next one; a save from a base already replaced is refused', async () => {
    const page = await pageEdit('Hi');
    const first = await call('save', { syncText: page.syncText, base: page.base });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ saved: true, base: sha256(join(project, '.sync.yml')) });
    const next = page.syncText.replace('Hi', 'Hello again');
    expect((await call('save', { syncText: next, base: first.json.base })).status).toBe(200);
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(next);
    const stale = await call('save', { syncText: page.syncText, base: page.base });
    expect(stale.status).toBe(409);
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(next);
  });
});

describe('the page when the server refuses a write', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(() => browser?.close());

  async function openPage() {
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForSelector('#files li[data-path="example"]');
    const greeting = page.locator('fieldset[data-template="greet"] .field[data-setting="greeting"] input');
    await greeting.fill('Hi');
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('unsaved changes');
    // Apply waits for the preview of the text as it is now.
    await expect.poll(() => page.locator('#apply').isEnabled()).toBe(true);
    return { page, errors };
  }

  it('says .sync.yml changed on disk, keeps it, and reloads it on request', async () => {
    const { page, errors } = await openPage();
    const edited = SYNC.replace('templates: [greet]', 'templates: [greet] # added in my editor');
    writeFileSync(join(project, '.sync.yml'), edited);
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#notice').isVisible()).toBe(true);
    expect(await page.locator('#notice-text').textContent()).toMatch(
      /^\.sync\.yml was changed on disk after this page loaded it .*: reload to start from \.sync\.yml as it is now/,
    );
    expect(await page.locator('#apply-result').textContent()).toBe('not applied');
    expect(await page.locator('#save-state').textContent()).toBe('unsaved changes');
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(edited);
    await page.screenshot({ path: join(shots, 'ui-refused-sync-changed.png') });
    await page.locator('#reload').click();
    await expect.poll(() => page.locator('#notice').isVisible()).toBe(false);
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    expect(
      await page
        .locator('fieldset[data-template="greet"] .field[data-setting="greeting"] input')
        .inputValue(),
    ).toBe('Hello');
    // From the reloaded file, Apply goes through and keeps the editor's comment.
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#apply-result').textContent()).toBe('Changed 1 file: example');
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(edited);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('says which output changed since the preview, shows the new preview, and applies it on the next click', async () => {
    const { page, errors } = await openPage();
    appendFileSync(template, 'a line the preview never showed\n');
    await page.locator('#apply').click();
    await expect
      .poll(() => page.locator('#notice-text').textContent())
      .toBe(
        'what apply would do changed since the preview (example): nothing was written: look at the preview again (the page shows the new one), then apply',
      );
    expect(await page.locator('#reload').isVisible()).toBe(false);
    expect(await page.locator('#save-state').textContent()).toBe('unsaved changes');
    await page.locator('#files li[data-path="example"]').click();
    await expect
      .poll(() => page.locator('#diff').textContent())
      .toContain('+a line the preview never showed');
    await page.screenshot({ path: join(shots, 'ui-refused-preview-changed.png') });
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#apply-result').textContent()).toBe('Changed 1 file: example');
    expect(await page.locator('#save-state').textContent()).toBe('saved');
    expect(readFileSync(join(project, 'example'), 'utf8')).toContain('a line the preview never showed');
    expect(errors).toEqual([]);
    await page.close();
  });
});
