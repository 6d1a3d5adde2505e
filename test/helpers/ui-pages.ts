/**
 * What the browser tests share: for `pantograph ui`, one Debian chromium per test file (through
 * playwright-core), the servers its tests start (closed after the file), the page opened on a server and
 * loaded, and projects made by the built CLI as a user makes them (ui-projects.ts); for the playground,
 * its page loaded.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { removeTempDirs } from './fs.js';

const root = resolve(import.meta.dirname, '../..');

// The projects the pages open, made by the built CLI, are in ui-projects.ts (which loads no browser).
export { cli, initProject, newTemplateRepository } from './ui-projects.js';

export interface UiSession {
  /** Launched before the file's tests. */
  browser: Browser;
  /** Every server a test started, closed after the file. */
  readonly servers: UiServer[];
}

/** Launches chromium before the calling file's tests; closes it, the servers and the temp dirs after. */
export function uiSession(): UiSession {
  const session = { servers: [] } as unknown as UiSession;
  beforeAll(async () => {
    // scripts/test-tools.mjs installs Debian's chromium before the suite when it is missing.
    session.browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  }, 60_000);
  afterAll(async () => {
    await session.browser?.close();
    for (const s of session.servers) await s.close();
    removeTempDirs();
  });
  return session;
}

export interface OpenedPage {
  page: Page;
  server: UiServer;
  /** The page's uncaught errors. */
  errors: string[];
}

/**
 * `pantograph ui` on `dir` (the author's view with `author`), its page loaded in a window `width` pixels
 * wide once `wait` shows (the project's file list by default).
 */
export async function openUi(
  session: UiSession,
  dir: string,
  options: { author?: boolean; wait?: string; width?: number; strict?: false } = {},
): Promise<OpenedPage> {
  const server = await startUi({
    root: dir,
    ...(options.author ? { author: true } : {}),
    ...(options.strict === false ? { strict: false } : {}),
  });
  session.servers.push(server);
  const page = await session.browser.newPage({ viewport: { width: options.width ?? 1500, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(server.url);
  await page.waitForSelector(options.wait ?? (options.author ? 'li.author-file' : '#files li'));
  return { page, server, errors };
}

/**
 * Debian's chromium with the built playground (dist/playground) loaded and its first render done (it runs
 * in a Web Worker, so its output shows a moment after the page loads); the page's uncaught errors go to
 * `errors`. The caller closes the browser.
 */
export async function openPlayground(errors: string[]): Promise<{ browser: Browser; page: Page }> {
  // scripts/test-tools.mjs installs Debian's chromium before the suite when it is missing.
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(root, 'dist/playground/index.html')).href);
  await page.waitForFunction(() => window.playground !== undefined);
  await page.evaluate(() => window.playground?.ready());
  return { browser, page };
}

/** The page's test API, as far as loading it needs (web/playground/main.ts declares it whole). */
declare const window: { playground?: { ready(): Promise<void> } };
