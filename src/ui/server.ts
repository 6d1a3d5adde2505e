/**
 * `pantograph ui`: the web interface, a local server on 127.0.0.1 only (DESIGN 13b). It serves a fixed set
 * of page files (no path from a request ever names a file) and the API (api.ts), every request behind the
 * token check (security.ts). A client of the library like the CLI.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { packagePath } from '../package-root.js';
import { type ApiOptions, api } from './api.js';
import { authorApi } from './author-api.js';
import { guard } from './security.js';

/** The page's files: request path -> file under dist/, and its type. */
const PAGES: Record<string, [file: string, type: string]> = {
  '/': ['ui/index.html', 'text/html; charset=utf-8'],
  '/ui.js': ['ui/ui.js', 'text/javascript; charset=utf-8'],
  '/ui.css': ['ui/ui.css', 'text/css; charset=utf-8'],
  // The page links the icon; a browser asks /favicon.ico of a page that has none (the playground's).
  '/favicon.svg': ['ui/favicon.svg', 'image/svg+xml'],
  '/favicon.ico': ['ui/favicon.svg', 'image/svg+xml'],
  '/playground/': ['playground/index.html', 'text/html; charset=utf-8'],
  '/playground/playground.js': ['playground/playground.js', 'text/javascript; charset=utf-8'],
  '/playground/playground.css': ['playground/playground.css', 'text/css; charset=utf-8'],
};

export interface UiServer {
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

export interface UiOptions extends ApiOptions {
  /** `root` is a template repository: the author's view. */
  readonly author?: boolean;
}

export function uiApp(options: UiOptions & { readonly token: string; readonly port: () => number }): Hono {
  const app = new Hono();
  app.use('*', guard(options.token, options.port));
  app.use('*', async (c, next) => {
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer'); // the token is in the URL: never sent elsewhere
    c.header(
      'content-security-policy',
      // blob: workers only: the playground's renders run in a worker its own script starts from a Blob.
      "default-src 'self'; style-src 'self' 'unsafe-inline'; worker-src blob:; frame-ancestors 'none'",
    );
  });
  // A template repository (no .sync.yml, templates in it) opens the author's view; a project the other.
  const author = options.author === true;
  app.post('/api/mode', (c) => c.json({ mode: author ? 'author' : 'project' }));
  if (author) app.route('/api/author', authorApi(options.root, options));
  else app.route('/api', api(options));
  for (const [path, [file, type]] of Object.entries(PAGES)) {
    app.get(path, (c) => {
      const text = readFileSync(packagePath('dist', file), 'utf8');
      return c.body(text, 200, { 'content-type': type, 'cache-control': 'no-store' });
    });
  }
  app.get('/playground', (c) => c.redirect('/playground/', 301));
  app.notFound((c) => c.json({ error: 'not found' }, 404));
  return app;
}

export async function startUi(options: UiOptions & { readonly port?: number }): Promise<UiServer> {
  const token = randomBytes(24).toString('base64url');
  let port = 0;
  const app = uiApp({ ...options, token, port: () => port });
  const server = await new Promise<ReturnType<typeof serve>>((resolvePromise, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port ?? 0 }, () =>
      resolvePromise(s),
    );
    s.once('error', reject);
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
