/**
 * Issue 14: pull and merge requests through a fake forge on the loopback interface (GitHub's and GitLab's
 * API as the fleet calls them): one per changed repository, updated on a later run, the token sent but
 * never printed. And a remote that asks for credentials fails at once instead of waiting for a prompt.
 */

import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { appendSync, moduleRemote, pantographAsync } from './fleet-helpers.js';

afterAll(removeTempDirs);

const TOKEN = 'secret-token-4711';

interface Request {
  readonly method: string;
  readonly path: string;
  readonly auth: string | undefined;
  readonly body: Record<string, unknown> | undefined;
}

interface Pull {
  repo?: string;
  number: number;
  head: string;
  base: string;
  title: string;
  body: string;
  labels: string[];
}

/** A forge that keeps pull requests in memory and records every request. */
async function fakeForge(
  kind: 'github' | 'gitlab',
): Promise<{ url: string; requests: Request[]; pulls: Pull[]; server: Server }> {
  const requests: Request[] = [];
  const pulls: Pull[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://x');
    const auth =
      kind === 'github' ? req.headers.authorization : (req.headers['private-token'] as string | undefined);
    requests.push({ method: req.method ?? '', path: url.pathname, auth, body });
    const send = (status: number, data: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    const expected = kind === 'github' ? `Bearer ${TOKEN}` : TOKEN;
    if (auth !== expected) return send(401, { message: 'Bad credentials' });
    const asGithub = (p: Pull) => ({ number: p.number, html_url: `https://forge.test/pull/${p.number}` });
    const asGitlab = (p: Pull) => ({ iid: p.number, web_url: `https://forge.test/mr/${p.number}` });
    if (kind === 'github') {
      let m = /^\/repos\/acme\/([^/]+)\/pulls$/.exec(url.pathname);
      if (m && req.method === 'GET') {
        const head = url.searchParams.get('head');
        return send(200, pulls.filter((p) => p.repo === m![1] && `acme:${p.head}` === head).map(asGithub));
      }
      if (m && req.method === 'POST') {
        const fields = body as Omit<Pull, 'number' | 'labels'>;
        const p: Pull = { repo: m[1]!, number: pulls.length + 1, labels: [], ...fields };
        pulls.push(p);
        return send(201, asGithub(p));
      }
      m = /^\/repos\/acme\/[^/]+\/pulls\/(\d+)$/.exec(url.pathname);
      if (m && req.method === 'PATCH') {
        const p = pulls.find((x) => x.number === Number(m![1]))!;
        Object.assign(p, body);
        return send(200, asGithub(p));
      }
      m = /^\/repos\/acme\/[^/]+\/issues\/(\d+)\/labels$/.exec(url.pathname);
      if (m && req.method === 'POST') {
        pulls.find((x) => x.number === Number(m![1]))!.labels = body?.labels as string[];
        return send(200, []);
      }
    } else {
      const base = '/projects/acme%2Fmr-mod/merge_requests';
      const raw = (req.url ?? '').split('?')[0];
      if (raw === base && req.method === 'GET') {
        return send(200, pulls.filter((p) => p.head === url.searchParams.get('source_branch')).map(asGitlab));
      }
      if (raw === base && req.method === 'POST') {
        const b = body as Record<string, string>;
        const p: Pull = {
          number: pulls.length + 1,
          head: b.source_branch!,
          base: b.target_branch!,
          title: b.title!,
          body: b.description!,
          labels: b.labels!.split(','),
        };
        pulls.push(p);
        return send(201, asGitlab(p));
      }
      const m = new RegExp(`^${base.replace(/%/g, '%')}/(\\d+)$`).exec(raw ?? '');
      if (m && req.method === 'PUT') {
        const p = pulls.find((x) => x.number === Number(m[1]))!;
        p.title = (body as Record<string, string>).title!;
        p.body = (body as Record<string, string>).description!;
        return send(200, asGitlab(p));
      }
    }
    send(404, { message: 'Not Found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, pulls, server };
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function readBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

function fleetFile(root: string, lines: string[]): string {
  const file = join(root, 'fleet.yml');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('pull requests', () => {
  it('GitHub: opens one per changed repository with the changed files and labels, and updates it on the next run', async () => {
    const forge = await fakeForge('github');
    const root = tempDir('fleet-pr-');
    moduleRemote(root, 'pr-mod', (w) => appendSync(w, 'puppet_lint:\n  fail_on_warnings: false\n'));
    moduleRemote(root, 'calm');
    const fleet = (settings: string) =>
      fleetFile(root, [
        'version: 1',
        `forge: { type: github, api: "${forge.url}" }`,
        'pull_request: { labels: [templates] }',
        `defaults: { settings: ${settings} }`,
        'repositories:',
        '  - { name: pr-mod, url: remotes/pr-mod.git, forge_project: acme/pr-mod }',
        '  - { name: calm, url: remotes/calm.git, forge_project: acme/calm }',
      ]);
    fleet('{}');
    const first = await pantographAsync(root, ['fleet', 'apply', '--push', '--pr'], { GITHUB_TOKEN: TOKEN });
    expect(first.stderr + first.stdout).not.toContain(TOKEN);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /pr-mod\s+applied\s+2\s+pantograph\/update@\w+ pushed created https:\/\/forge\.test\/pull\/1/,
    );
    expect(forge.pulls).toHaveLength(1); // calm was in line: nothing to propose
    const pr = forge.pulls[0]!;
    expect(pr).toMatchObject({ head: 'pantograph/update', base: 'main', labels: ['templates'] });
    expect(pr.title).toMatch(/^Update from templates: default \(pantograph /);
    expect(pr.body).toContain('`Rakefile` (modified)');
    expect(pr.body).toContain('`.puppet-lint.rc` (modified)');
    expect(pr.body).toContain('`puppet_lint` 1.0.0 from default');

    // A template setting changes for the whole fleet: a second commit on the branch, the same PR updated.
    fleet('{ puppet_lint: { relative: false } }');
    const second = await pantographAsync(root, ['fleet', 'apply', '--push', '--pr'], { GITHUB_TOKEN: TOKEN });
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('updated https://forge.test/pull/1');
    expect(second.stdout).toContain('created https://forge.test/pull/2');
    expect(forge.pulls.map((p) => [p.repo, p.number])).toEqual([
      ['pr-mod', 1],
      ['calm', 2],
    ]);
    expect(forge.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    expect(forge.requests.every((r) => r.auth === `Bearer ${TOKEN}`)).toBe(true);
  });

  it("msync's flags: -b, --pr-title and --pr-labels (space- or comma-separated, or --pr_labels) replace the fleet file's", async () => {
    const forge = await fakeForge('github');
    const root = tempDir('fleet-pr-msync-');
    moduleRemote(root, 'pr-mod', (w) => appendSync(w, 'puppet_lint:\n  fail_on_warnings: false\n'));
    fleetFile(root, [
      'version: 1',
      `forge: { type: github, api: "${forge.url}" }`,
      'pull_request: { title: "From the file", labels: [templates] }',
      'repositories:',
      '  - { name: pr-mod, url: remotes/pr-mod.git, forge_project: acme/pr-mod }',
    ]);
    const r = await pantographAsync(
      root,
      [
        'fleet',
        'apply',
        '--push',
        '--pr',
        '-b',
        'modulesync',
        '--pr_title',
        'Modulesync 10.8.0',
        '--pr-labels',
        'a,b',
        'c',
      ],
      { GITHUB_TOKEN: TOKEN },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(forge.pulls).toHaveLength(1);
    expect(forge.pulls[0]).toMatchObject({
      head: 'modulesync',
      title: 'Modulesync 10.8.0',
      labels: ['a', 'b', 'c'],
    });
  });

  it('a refused token fails that repository with a hint, and the token is not printed', async () => {
    const forge = await fakeForge('github');
    const root = tempDir('fleet-pr-bad-');
    moduleRemote(root, 'm', (w) => appendSync(w, 'puppet_lint:\n  fail_on_warnings: false\n'));
    fleetFile(root, [
      'version: 1',
      `forge: { type: github, api: "${forge.url}", token_env: MY_FORGE_TOKEN }`,
      'repositories: [{ name: m, url: remotes/m.git, forge_project: acme/m }]',
    ]);
    const wrong = 'wrong-token-0815';
    const r = await pantographAsync(root, ['fleet', 'apply', '--push', '--pr'], { MY_FORGE_TOKEN: wrong });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('HTTP 401 (Bad credentials)');
    expect(r.stderr).toContain('the token in MY_FORGE_TOKEN was refused');
    expect(r.stdout + r.stderr).not.toContain(wrong);
    const none = await pantographAsync(root, ['fleet', 'apply', '--push', '--pr', '--fresh'], {
      MY_FORGE_TOKEN: '',
    });
    expect(none.stderr).toContain('needs a github token in the environment variable MY_FORGE_TOKEN');
  });

  it('GitLab: opens a merge request once and updates it', async () => {
    const forge = await fakeForge('gitlab');
    const root = tempDir('fleet-mr-');
    moduleRemote(root, 'mr-mod', (w) => appendSync(w, 'puppet_lint:\n  fail_on_warnings: false\n'));
    const write = (relative: boolean) =>
      fleetFile(root, [
        'version: 1',
        `forge: { type: gitlab, api: "${forge.url}" }`,
        'pull_request: { title: "Templates update", labels: [a, b] }',
        `defaults: { settings: { puppet_lint: { relative: ${relative} } } }`,
        'repositories: [{ name: mr-mod, url: remotes/mr-mod.git, forge_project: acme/mr-mod }]',
      ]);
    write(true);
    const first = await pantographAsync(root, ['fleet', 'apply', '--push', '--pr'], { GITLAB_TOKEN: TOKEN });
    expect(first.status).toBe(0);
    expect(forge.pulls).toEqual([
      expect.objectContaining({
        number: 1,
        head: 'pantograph/update',
        base: 'main',
        title: 'Templates update',
        labels: ['a', 'b'],
      }),
    ]);
    write(false);
    const second = await pantographAsync(root, ['fleet', 'apply', '--push', '--pr'], { GITLAB_TOKEN: TOKEN });
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('updated https://forge.test/mr/1');
    expect(forge.pulls).toHaveLength(1);
    expect(forge.requests.filter((r) => r.method === 'PUT')).toHaveLength(1);
  });
});

describe('credentials', () => {
  it('a remote that asks for credentials fails at once, with a hint, instead of waiting for a prompt', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="forge"' });
      res.end('login required');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    const port = (server.address() as AddressInfo).port;
    const root = tempDir('fleet-cred-');
    fleetFile(root, [
      'version: 1',
      `repositories: [{ name: private, url: "http://127.0.0.1:${port}/acme/private.git" }]`,
    ]);
    const started = Date.now();
    const r = await pantographAsync(root, ['fleet', 'status'], {
      GIT_ASKPASS: 'some-gui-askpass',
      SSH_ASKPASS: '',
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('private: failed');
    expect(r.stderr).toContain('asks for credentials');
  });
});
