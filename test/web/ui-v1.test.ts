/**
 * `pantograph ui` on a `.sync.yml` that is not V2 (session 23's leftovers): a modulesync module applied once
 * (voxpupuli's configuration 10.8.0 over puppet-autofs, the lock naming it) shows what it renders and says
 * why there are no templates or forms; a module the page cannot load for want of `--trust` or of
 * `--template-url` says to restart `pantograph ui` so, not "fix it, then reload". Debian's chromium.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startUi } from '../../src/ui/server.js';
import { tempDir, tempTree } from '../helpers/fs.js';
import { cli, uiSession } from '../helpers/ui-pages.js';

const ui = uiSession();
const FIXTURES = resolve(import.meta.dirname, '../fixtures/modulesync');
const CONFIGURATION = join(FIXTURES, 'modulesync_config-10.8.0');

function autofs(): string {
  const root = join(tempDir('ui-v1-'), 'puppet-autofs');
  cpSync(join(FIXTURES, 'modules/puppet-autofs'), root, { recursive: true });
  return root;
}

async function open(dir: string, wait: string, options: { templateUrl?: string } = {}) {
  const server = await startUi({ root: dir, ...options });
  ui.servers.push(server);
  const page = await ui.browser.newPage({ viewport: { width: 1500, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.waitForSelector(wait);
  return { page, errors };
}

describe('a modulesync module in the page', () => {
  it('applied once: the files it renders, and why there are no templates or forms', async () => {
    const dir = autofs();
    expect(cli(dir, 'apply', '--yes', '--template-url', CONFIGURATION).status).toBe(0);
    const { page, errors } = await open(dir, '#files li');
    expect(await page.locator('#catalogue .v1-note').textContent()).toBe(
      `This .sync.yml is V1: its keys are files of the modulesync configuration ${CONFIGURATION}, which an earlier run recorded in .pantograph.lock, not templates, so there are none to add or remove here.`,
    );
    expect(await page.locator('#forms .v1-note').textContent()).toContain('No settings forms');
    expect(await page.locator('#files li').count()).toBeGreaterThan(10);
    expect(await page.locator('#notice').isHidden()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('with no configuration named: says to start the page with --template-url', async () => {
    const { page, errors } = await open(autofs(), '#notice:not([hidden])');
    const notice = await page.locator('#notice-text').textContent();
    expect(notice).toMatch(/^the project does not load: .sync.yml has no `pdk_template` key/);
    expect(notice).toContain(
      'stop `pantograph ui` (Ctrl-C) and start it again as `pantograph ui --template-url DIR|URL[#REF]`',
    );
    expect(notice).not.toContain('fix it');
    expect(errors).toEqual([]);
    await page.close();
    // Started so, it loads.
    const started = await open(autofs(), '#files li', { templateUrl: CONFIGURATION });
    expect(await started.page.locator('#catalogue .v1-note').textContent()).toContain('(--template-url)');
    await started.page.close();
  });
});

describe('a V1 project whose repository is a git URL not trusted', () => {
  it('says to restart `pantograph ui --trust`, not to fix a file', async () => {
    const dir = tempTree({
      '.sync.yml': '---\nGemfile:\n  required: {}\n',
      'metadata.json': JSON.stringify({
        name: 'acme-x',
        version: '0.1.0',
        'template-url': 'https://example.invalid/acme/pdk-templates.git#main',
      }),
    });
    writeFileSync(join(dir, 'README.md'), 'mine\n');
    const { page, errors } = await open(dir, '#notice:not([hidden])');
    const notice = await page.locator('#notice-text').textContent();
    expect(notice).toContain('runs Ruby code (its ERB templates), and it is not trusted');
    expect(notice).toContain(
      "the page runs a repository's Ruby only when `pantograph ui` is started trusting it: if you trust it, stop `pantograph ui` (Ctrl-C), start it again as `pantograph ui --trust`, then reload",
    );
    expect(notice).not.toContain('fix it');
    expect(errors).toEqual([]);
    await page.close();
  });
});
