/**
 * Issue 15: `pantograph ui`, the local web interface. Its security as an attacker meets it (no token, a
 * wrong one, another origin, another Host, a large body, paths that try to leave), then the page in
 * Debian's chromium as a user uses it: the catalogue, adding a template, a setting's validation error at
 * its field, the live preview and its diff, saving (comments kept) and applying. Screenshots go to
 * test-results/screenshots/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { removeTempDirs, snapshotDir, tempDir } from '../helpers/fs.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'dist/cli/bin.cjs');
const shots = join(root, 'test-results', 'screenshots');

let project: string;
let server: UiServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
/** Requests of the page answered with an error status, and how many asked for the icon. */
const failedRequests: string[] = [];
let iconRequests = 0;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  project = join(tempDir('ui-'), 'module');
  const init = spawnSync(process.execPath, [bin, 'init', project, '--name', 'acme-web', '--yes'], {
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(init.stderr);
  server = await startUi({ root: project });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  removeTempDirs();
});

const base = () => `http://127.0.0.1:${server.port}`;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pantograph-token': server.token, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('pantograph ui: security', () => {
  it('binds to 127.0.0.1 and prints a URL with a random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
  });

  it('refuses every API request without the token, or with a wrong one; serves the page files, which hold no secret', async () => {
    expect((await fetch(`${base()}/`)).status).toBe(200);
    expect((await fetch(`${base()}/ui.js`)).status).toBe(200);
    expect((await post('/api/state', {}, { 'x-pantograph-token': 'wrong' })).status).toBe(401);
    expect((await post('/api/state', {}, { 'x-pantograph-token': '' })).status).toBe(401);
    expect((await post('/api/state', {})).status).toBe(200);
  });

  it('sets no cookie, and refuses the token from a cookie or the URL: another server on 127.0.0.1 receives the cookies of this one', async () => {
    const page = await fetch(`${base()}/?token=${server.token}`);
    expect(page.headers.get('set-cookie')).toBeNull();
    const only = (headers: Record<string, string>, query = '') =>
      fetch(`${base()}/api/state${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const before = snapshotDir(project);
    // What a process on another port could replay: the cookie, from its own origin or from none.
    expect((await only({ cookie: `pantograph_token=${server.token}` })).status).toBe(401);
    expect(
      (await only({ cookie: `pantograph_token=${server.token}`, origin: 'http://127.0.0.1:1' })).status,
    ).toBe(403);
    expect((await only({}, `?token=${server.token}`)).status).toBe(401);
    expect((await fetch(`${base()}/api/state?token=${server.token}`)).status).toBe(401);
    // The header itself from another port's page: its Origin is refused.
    expect((await post('/api/state', {}, { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(
      403,
    );
    expect(snapshotDir(project)).toEqual(before);
  });

  it('sends nothing of the token to another server on 127.0.0.1 that the user visits next (cookies ignore ports)', async () => {
    const { createServer } = await import('node:http');
    const seen: string[] = [];
    const other = createServer((req, res) => {
      seen.push(`${req.url} ${req.headers.cookie ?? ''}`);
      res.end('<p>another local server</p>');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const tab = await browser.newPage();
    try {
      await tab.goto(server.url);
      await tab.waitForSelector('#catalogue li');
      // The token left the address bar; a reload works from the tab's own storage.
      expect(tab.url()).not.toContain(server.token);
      await tab.reload();
      await tab.waitForSelector('#catalogue li');
      const port = (other.address() as import('node:net').AddressInfo).port;
      await tab.goto(`http://127.0.0.1:${port}/`);
      expect(seen.join('\n')).not.toContain(server.token);
      expect(seen.join('\n')).not.toContain('pantograph');
      // Nor can that server's page read it: storage is per origin (port included).
      expect(
        await tab.evaluate(() =>
          JSON.stringify({ ...(globalThis as unknown as { sessionStorage: object }).sessionStorage }),
        ),
      ).not.toContain(server.token);
    } finally {
      await tab.close();
      other.close();
    }
  });

  it('refuses another origin and another Host (DNS rebinding)', async () => {
    const before = snapshotDir(project);
    expect((await post('/api/save', { syncText: 'x: 1\n' }, { origin: 'http://evil.example' })).status).toBe(
      403,
    );
    const rebound = await new Promise<number>((done) => {
      // fetch() will not send another Host: a raw request does, as a rebinding browser would.
      import('node:http').then(({ request }) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: server.port,
            path: `/?token=${server.token}`,
            headers: { host: 'evil.example' },
          },
          (res) => done(res.statusCode ?? 0),
        );
        req.end();
      });
    });
    expect(rebound).toBe(403);
    expect(snapshotDir(project)).toEqual(before);
  });

  it('refuses a very large body, and bodies that are not JSON objects', async () => {
    const before = snapshotDir(project);
    const huge = JSON.stringify({ syncText: 'x'.repeat(2 * 1024 * 1024) });
    expect((await post('/api/save', huge)).status).toBe(413);
    expect((await post('/api/save', 'not json')).status).toBe(400);
    expect((await post('/api/save', [1, 2])).status).toBe(400);
    expect(snapshotDir(project)).toEqual(before);
  });

  it('serves no path outside its own pages, and a template name is never a path', async () => {
    for (const path of [
      '/../package.json',
      '/playground/../../package.json',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/dist/ui/ui.js',
    ]) {
      const r = await fetch(`${base()}${path}?token=${server.token}`);
      expect(r.status, path).toBe(404);
    }
    const before = snapshotDir(project);
    const edit = await post('/api/edit', {
      kind: 'add',
      template: '../../../etc',
      syncText: readFileSync(join(project, '.sync.yml'), 'utf8'),
    });
    expect(edit.status).toBe(404);
    const syncText = readFileSync(join(project, '.sync.yml'), 'utf8');
    const check = await post('/api/check', { template: '../x', settings: {}, syncText });
    expect(check.status).toBe(404);
    expect(snapshotDir(project)).toEqual(before);
  });
});

describe('pantograph ui: the page in a browser', () => {
  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('request', (r) => {
      if (/^\/favicon\./.test(new URL(r.url()).pathname)) iconRequests++;
    });
    page.on('response', (r) => {
      if (r.status() >= 400) failedRequests.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(server.url);
    await page.waitForSelector('#files li');
  });

  it('loads with no failing request: its icon included', async () => {
    // The browser asks for the icon by itself, after the page loads.
    await expect.poll(() => iconRequests).toBeGreaterThan(0);
    expect(failedRequests).toEqual([]);
    const icon = await fetch(`${base()}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });

  it('lists the catalogue: every template, applied or not', async () => {
    const names = await page.locator('#catalogue .name').allTextContents();
    expect(names).toContain('rubocop');
    expect(names).toContain('gemfile');
    const gemfile = page.locator('#catalogue li', { hasText: 'gemfile' }).first();
    expect(await gemfile.locator('.badge.applied').count()).toBe(1);
    await page.screenshot({ path: join(shots, 'ui-catalogue.png') });
    expect(pageErrors).toEqual([]);
  });

  it('adds a template: its form appears, the preview shows what it creates', async () => {
    await page.locator('#catalogue button[data-template="rubocop"]').click();
    await page.waitForSelector('fieldset[data-template="rubocop"]');
    await expect
      .poll(() => page.locator('#files li', { hasText: '.rubocop.yml' }).textContent())
      .toContain('create');
    expect(await page.locator('#save-state').textContent()).toBe('unsaved changes');
  });

  it("shows a validation error at the field as the user types, with validate's message", async () => {
    const area = page.locator(
      'fieldset[data-template="puppet_lint"] .field[data-setting="disabled_checks"] textarea',
    );
    await area.fill('not a check');
    const error = page.locator(
      'fieldset[data-template="puppet_lint"] .field[data-setting="disabled_checks"] .error',
    );
    // What `pantograph validate` says of the same value in .sync.yml.
    const copy = join(tempDir('ui-validate-'), 'module');
    spawnSync('cp', ['-r', project, copy]);
    writeFileSync(
      join(copy, '.sync.yml'),
      `${readFileSync(join(copy, '.sync.yml'), 'utf8')}puppet_lint:\n  disabled_checks: ['not a check']\n`,
    );
    const validate = spawnSync(process.execPath, [bin, '--format', 'json', 'validate'], {
      cwd: copy,
      encoding: 'utf8',
    });
    const expected = (
      JSON.parse(validate.stdout) as { problems: { code: string; message: string }[] }
    ).problems.find((p) => p.code === 'SETTINGS_INVALID')!.message;
    // (the project's list is added to the template's defaults: the index is the merged list's)
    expect(expected).toMatch(/^puppet_lint: setting 'disabled_checks\.\d+' must be/);
    await expect.poll(() => error.textContent()).toBe(expected);
    await page.screenshot({ path: join(shots, 'ui-field-error.png') });
    await area.fill('80chars');
    await expect.poll(() => error.textContent()).toBe('');
  });

  it('previews a setting change live, with its diff, without saving', async () => {
    const onDisk = readFileSync(join(project, '.sync.yml'), 'utf8');
    await page
      .locator('fieldset[data-template="puppet_lint"] .field[data-setting="fail_on_warnings"] input')
      .click();
    const rc = page.locator('#files li', { hasText: '.puppet-lint.rc' });
    await expect.poll(() => rc.textContent()).toContain('changed');
    await rc.click();
    expect(await page.locator('#diff').textContent()).toContain('---fail-on-warnings');
    expect(readFileSync(join(project, '.sync.yml'), 'utf8')).toBe(onDisk); // nothing saved yet
    await page.screenshot({ path: join(shots, 'ui-preview.png') });
  });

  it('saves .sync.yml keeping its comments, then applies', async () => {
    await page.locator('#save').click();
    await expect.poll(() => page.locator('#save-state').textContent()).toBe('saved');
    const text = readFileSync(join(project, '.sync.yml'), 'utf8');
    expect(text).toContain('# Pantograph keeps this module in line with its templates');
    expect(text).toMatch(/puppet_lint:\n(.*\n)*\s+fail_on_warnings: false/);
    expect(text).toContain('rubocop');
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#apply-result').textContent()).toMatch(/^Changed \d+ files/);
    expect(readFileSync(join(project, '.puppet-lint.rc'), 'utf8')).not.toContain('--fail-on-warnings');
    const status = spawnSync(process.execPath, [bin, 'status', '--check'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(status.status).toBe(0);
    await page.screenshot({ path: join(shots, 'ui-applied.png') });
    expect(pageErrors).toEqual([]);
  });
});

describe("pantograph ui on a template repository: the author's view", () => {
  let repo: string;
  let authorServer: UiServer;
  beforeAll(async () => {
    repo = tempDir('ui-author-');
    for (const name of ['greet', 'other']) {
      const made = spawnSync(process.execPath, [bin, 'new', 'template', name, '-C', repo], {
        encoding: 'utf8',
      });
      if (made.status !== 0) throw new Error(made.stderr);
    }
    authorServer = await startUi({ root: repo, author: true });
  });
  afterAll(() => authorServer?.close());

  it('reads and writes only the files a template lists', async () => {
    const call = (path: string, body: unknown) =>
      fetch(`http://127.0.0.1:${authorServer.port}/api/author/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pantograph-token': authorServer.token },
        body: JSON.stringify(body),
      });
    const before = snapshotDir(repo);
    for (const source of ['../../../etc/passwd', 'tests/basic/.sync.yml', '/etc/passwd']) {
      expect((await call('file', { template: 'greet', source })).status, source).toBe(404);
      expect((await call('save', { template: 'greet', source, text: 'x' })).status, source).toBe(404);
    }
    expect((await call('case', { template: 'greet', case: '../..' })).status).toBe(404);
    // template.json is listed, but a save of it that would not load is refused at its place (422).
    const { base } = (await (await call('file', { template: 'greet', source: 'template.json' })).json()) as {
      base: string;
    };
    const refused = await call('save', { template: 'greet', source: 'template.json', text: 'x', base });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      saved: false,
      error: 'greet/template.json was not saved: it has an error, and the template would not load',
      problems: [{ code: 'TEMPLATE_JSON', file: 'greet/template.json', line: 1, column: 1 }],
    });
    expect(snapshotDir(repo)).toEqual(before);
  });

  it('edits a template file and shows the test case beside its expected output, as the author types', async () => {
    const author = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    author.on('pageerror', (e) => pageErrors.push(e.message));
    await author.goto(authorServer.url);
    await author.locator('li.author-file[data-template="greet"][data-source="files/example.epp"]').click();
    await expect.poll(() => author.locator('#author-status').textContent()).toBe('passed');
    const editor = author.locator('#author-editor');
    expect(await editor.inputValue()).toContain('<%= $greeting %>, <%= $project');
    await editor.press('Control+End');
    await editor.type('# added by the author\n');
    // The page saves and runs the case as the author types: wait for the run of the whole line, not an
    // earlier keystroke's (its "failed" shows as soon as the first character differs).
    await expect
      .poll(() => readFileSync(join(repo, 'greet/files/example.epp'), 'utf8'))
      .toContain('# added by the author');
    await expect.poll(() => author.locator('#author-status').textContent()).toBe('failed');
    const row = author.locator('.side-by-side.differs[data-path="example"]');
    await expect.poll(() => row.locator('pre.actual').textContent()).toContain('# added by the author');
    expect(await row.locator('pre.expected').textContent()).not.toContain('# added by the author');
    await author.screenshot({ path: join(shots, 'ui-author.png') });
    expect(pageErrors).toEqual([]);
    await author.close();
  });

  it("runs the test case of the template being edited: another template's file switches to its case", async () => {
    const author = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    author.on('pageerror', (e) => pageErrors.push(e.message));
    await author.goto(authorServer.url);
    await author.locator('li.author-file[data-template="greet"][data-source="files/example.epp"]').click();
    await expect.poll(() => author.locator('#author-case').textContent()).toBe('greet: basic');
    await author.locator('li.author-file[data-template="other"][data-source="files/example.epp"]').click();
    await expect.poll(() => author.locator('#author-case').textContent()).toBe('other: basic');
    await expect.poll(() => author.locator('#author-status').textContent()).toBe('passed');
    const editor = author.locator('#author-editor');
    await editor.press('Control+End');
    await editor.type('BROKEN <%= $nosuch %>\n');
    // As the author types: the saved file and the run of the whole line, not an earlier keystroke's.
    await expect
      .poll(() => readFileSync(join(repo, 'other/files/example.epp'), 'utf8'))
      .toContain('BROKEN <%= $nosuch %>');
    await expect.poll(() => author.locator('#author-status').textContent()).toBe('failed');
    await expect.poll(() => author.locator('#author-result .error').textContent()).toContain('$nosuch');
    expect(await author.locator('#author-case').textContent()).toBe('other: basic');
    // What `pantograph test other` says of the saved file.
    const test = spawnSync(process.execPath, [bin, '--format', 'json', 'test', 'other', '-C', repo], {
      encoding: 'utf8',
    });
    const [run] = (
      JSON.parse(test.stdout) as { cases: { status: string; problems: { message: string }[] }[] }
    ).cases;
    expect(run?.status).toBe('failed');
    expect(await author.locator('#author-result .error').textContent()).toContain(run?.problems[0]?.message);
    expect(run?.problems[0]?.message).toBe("Unknown variable: '$nosuch'");
    expect(pageErrors).toEqual([]);
    await author.close();
  });

  it('answers a body that is not a JSON object with 400 and what is wrong, never a stack trace', async () => {
    // The command as a user starts it, so that what it prints on stderr is seen.
    const ui = spawn(process.execPath, [bin, 'ui', '--port', '0'], { cwd: repo });
    let stderr = '';
    ui.stderr.on('data', (d) => {
      stderr += String(d);
    });
    try {
      const url = await new Promise<URL>((done, fail) => {
        ui.stdout.on('data', (d) => {
          const m = /http:\S+/.exec(String(d));
          if (m) done(new URL(m[0]));
        });
        ui.once('exit', () => fail(new Error(`pantograph ui exited: ${stderr}`)));
      });
      const token = url.searchParams.get('token')!;
      for (const body of ['{bad', 'null', '"x"', '[1]']) {
        for (const path of ['file', 'save', 'case']) {
          const r = await fetch(`${url.origin}/api/author/${path}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-pantograph-token': token },
            body,
          });
          expect(r.status, `${path} ${body}`).toBe(400);
          expect(await r.json()).toEqual({
            error: body === '{bad' ? 'the body must be JSON' : 'the body must be a JSON object',
          });
        }
      }
    } finally {
      ui.kill();
    }
    expect(stderr).toBe('');
  });
});
