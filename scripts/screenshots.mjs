/**
 * `npm run screenshots`: the README's pictures of the web interface (docs/images/), made again from the
 * built command line (`npm run build` first) with playwright-core and Debian's chromium, so that they show
 * the pages as they are. Each picture is a fresh project or template repository in a temporary directory,
 * served by `pantograph ui` as a user starts it, in a window 1500 x 900; the playground is the built
 * static page (dist/playground). Look at each picture after: it must show what the README says beside it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(import.meta.dirname, '..');
const bin = join(root, 'dist/cli/bin.cjs');
const images = join(root, 'docs/images');
const scratch = mkdtempSync(join(tmpdir(), 'pantograph-screenshots-'));
const viewport = { width: 1500, height: 900 };

/** The built command line in `cwd`; stops the script when it fails. */
function cli(cwd, ...args) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`pantograph ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `pantograph ui` in `dir`, until `stop()`; resolves with the URL it prints. */
function serve(dir) {
  const child = spawn(process.execPath, [bin, 'ui', '--port', '0'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolvePromise, reject) => {
    let said = '';
    child.stdout.on('data', (chunk) => {
      said += chunk;
      const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(said)?.[0];
      if (url) resolvePromise({ url, stop: () => child.kill() });
    });
    child.on('exit', (code) => reject(new Error(`pantograph ui exited (${code}): ${said}`)));
  });
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  await projectPictures();
  await authorPicture();
  await playgroundPicture();
} finally {
  await browser.close();
  rmSync(scratch, { recursive: true, force: true });
}

/** The settings and the live preview (a diff shown), then a wrong setting at its field. */
async function projectPictures() {
  const project = join(scratch, 'web');
  cli(scratch, 'init', 'web', '--name', 'acme-web', '--yes');
  const server = await serve(project);
  try {
    const page = await browser.newPage({ viewport });
    await page.goto(server.url);
    await page.waitForSelector('#files li');
    await page.locator('#catalogue button[data-template="rubocop"]').click();
    await page.waitForSelector('fieldset[data-template="rubocop"]');
    const lint = 'fieldset[data-template="puppet_lint"]';
    await page.locator(`${lint} .field[data-setting="fail_on_warnings"] input`).click();
    const rc = page.locator('#files li', { hasText: '.puppet-lint.rc' });
    await waitFor(async () => (await rc.textContent()).includes('changed'));
    await rc.click();
    await waitFor(async () => (await page.locator('#diff').textContent()).includes('fail-on-warnings'));
    await page.locator(`${lint} legend, ${lint} h3`).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(images, 'ui-preview.png') });

    const checks = page.locator(`${lint} .field[data-setting="disabled_checks"]`);
    await checks.locator('textarea').fill('not a check');
    await checks.locator('.error').waitFor();
    // The field, its error and Save's state in sight.
    await checks.evaluate((e) => e.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: join(images, 'ui-field-error.png') });
    await page.close();
  } finally {
    server.stop();
  }
}

/** A template file edited: the case's output beside the expected one, the file that differs first. */
async function authorPicture() {
  const repo = join(scratch, 'my-templates');
  cli(scratch, 'new', 'template', 'greet', '-C', repo);
  const server = await serve(repo);
  try {
    const page = await browser.newPage({ viewport });
    await page.goto(server.url);
    await page.locator('li.author-file[data-source="files/example.epp"] button').click();
    await waitFor(async () => (await page.locator('#author-status').textContent()) === 'passed');
    const editor = page.locator('#author-editor');
    await editor.press('Control+End');
    await editor.pressSequentially("Managed by <%= $template['name'] %>\n");
    await waitFor(async () => (await page.locator('#author-status').textContent()) === 'failed');
    await page.locator('.side-by-side.differs').waitFor();
    await page.screenshot({ path: join(images, 'ui-author.png') });
    await page.close();
  } finally {
    server.stop();
  }
}

/** The playground with an unknown variable: underlined, and its hint naming the page's Strict variables. */
async function playgroundPicture() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  await page.goto(pathToFileURL(join(root, 'dist/playground/index.html')).href);
  await page.waitForFunction(() => window.playground !== undefined);
  await page.evaluate(() => window.playground.ready());
  await page.evaluate(() => window.playground.setValues('service: web\n'));
  const start = '<%- | String $service | -%>\nservice: <%= $service.upcase %>\n';
  await page.evaluate((text) => window.playground.setFile('main.epp', text), start);
  await page.locator('#template .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('port: <%= $port %>');
  await page.locator('#template .cm-lintRange-error').waitFor();
  await page.screenshot({ path: join(images, 'playground-error.png') });
  await page.close();
}

/** Polls `check` until it holds (10 s at most). */
async function waitFor(check) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${check}`);
}
