/**
 * Session 23, QA of `pantograph ui` as an attacker or a broken client meets it, over raw HTTP (a socket,
 * so that any method, Host or body goes out as written): every bad request is answered with a status that
 * says what kind of mistake it is and a message that says what is wrong, and nothing is written. Found:
 * a GET, DELETE or OPTIONS of the API was answered 413 ("a request body must say its length"), a POST of
 * a page 404; a template's name that was no string, or settings that were no object, were `String()`ed
 * into the text (`undefined:`, `rubocop: abc`); an unknown `kind` removed the template; an edit without
 * its text was planned as an empty `.sync.yml` and answered "a V1 file".
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { removeTempDirs, snapshotDir } from '../helpers/fs.js';
import { cli, initProject, newTemplateRepository } from '../helpers/ui-projects.js';

let project: string;
let server: UiServer;
let before: Record<string, string>;

beforeAll(async () => {
  project = initProject('ui-hostile-', 'acme-hostile');
  server = await startUi({ root: project });
  before = snapshotDir(project);
}, 60_000);

afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request as written, over a socket: the answer's status, headers and body. */
function raw(request: string): Promise<Answer> {
  return new Promise((done, fail) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.end(request));
    let text = '';
    socket.on('data', (d) => {
      text += String(d);
    });
    socket.on('error', fail);
    socket.on('close', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      done({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

/** A request with the right Host and token unless `headers` says otherwise. */
function request(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const all: Record<string, string> = {
    host: `127.0.0.1:${server.port}`,
    'x-pantograph-token': server.token,
    ...(body === undefined
      ? {}
      : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
    connection: 'close',
    ...headers,
  };
  const head = Object.entries(all)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return raw(`${method} ${path} HTTP/1.1\r\n${head}\r\n${body ?? ''}`);
}

const json = (a: Answer) =>
  JSON.parse(a.body.replace(/^[0-9a-f]+\r\n|\r\n0\r\n$/g, '')) as { error?: string };

describe('pantograph ui: hostile and broken requests', () => {
  it('answers a wrong method with 405, the methods the path takes and what it is, never 413 or 404', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const api = await request(method, '/api/state');
      expect(api.status, method).toBe(405);
      expect(api.headers.allow).toBe('POST');
      if (method !== 'HEAD')
        expect(json(api).error).toBe(
          `${method} /api/state is refused: the API takes a POST of a JSON object`,
        );
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const page = await request(method, '/', '{}');
      expect(page.status, method).toBe(405);
      expect(page.headers.allow).toBe('GET, HEAD');
      expect(json(page).error).toBe(`${method} / is refused: the page files are read with GET`);
    }
    // Without the token an API request is refused for that first, whatever its method.
    expect((await request('GET', '/api/state', undefined, { 'x-pantograph-token': '' })).status).toBe(401);
    expect(snapshotDir(project)).toEqual(before);
  });

  it('says which field of a request is wrong, and writes nothing', async () => {
    const syncText = before['.sync.yml']
      ? Buffer.from(before['.sync.yml'].split(' ')[1]!, 'base64').toString()
      : '';
    const cases: [string, object, string][] = [
      [
        '/api/edit',
        { kind: 'bogus', template: 'rubocop', syncText },
        'kind must be one of settings, add, remove',
      ],
      ['/api/edit', { template: 'rubocop', syncText }, 'kind is required: settings, add or remove'],
      [
        '/api/edit',
        { kind: 'settings', template: 'rubocop', settings: 'abc', syncText },
        "settings must be a JSON object: each setting's name and its value",
      ],
      [
        '/api/edit',
        { kind: 'settings', template: 'rubocop', settings: [1, 2], syncText },
        "settings must be a JSON object: each setting's name and its value",
      ],
      [
        '/api/edit',
        { kind: 'settings', settings: { a: 1 }, syncText },
        "template is required: a template's name",
      ],
      ['/api/edit', { kind: 'add', template: 'rubocop' }, 'syncText is required: the .sync.yml text to edit'],
      [
        '/api/check',
        { template: { a: 1 }, settings: {}, syncText },
        "template must be a template's name: a string of at most 256 characters",
      ],
      [
        '/api/check',
        { template: 'x'.repeat(300), settings: {}, syncText },
        "template must be a template's name: a string of at most 256 characters",
      ],
      ['/api/check', { settings: {}, syncText }, "template is required: a template's name"],
      ['/api/apply', { syncText, base: 'x', force: 'yes' }, 'force must be true or false'],
      ['/api/apply', { syncText, base: 'x', adopt: 1 }, 'adopt must be true or false'],
    ];
    for (const [path, body, error] of cases) {
      const answer = await request('POST', path, JSON.stringify(body));
      expect(answer.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      expect(json(answer).error).toBe(error);
    }
    expect(snapshotDir(project)).toEqual(before);
  });

  it('edits or checks a text the splices do not cover (no mapping, a !!binary value) without a 500, as validate says it', async () => {
    const list = '- 1\n- 2\n';
    const check = await request(
      'POST',
      '/api/check',
      JSON.stringify({ syncText: list, template: 'rubocop', settings: { selected_profile: 'strict' } }),
    );
    expect(check.status).toBe(422);
    expect(json(check)).toMatchObject({
      error: '.sync.yml must be a mapping of keys to values',
      problems: [{ code: 'SYNC_NOT_MAPPING', file: '.sync.yml', line: 1, column: 1 }],
    });
    // No section to edit: the text as it was (the page's next check or preview says why).
    const edit = await request(
      'POST',
      '/api/edit',
      JSON.stringify({ syncText: list, template: 'rubocop', kind: 'settings', settings: { a: 1 } }),
    );
    expect(edit.status).toBe(200);
    expect(JSON.parse(edit.body)).toEqual({ text: list, changed: [] });
    // A value validate refuses for its type tag, replaced from the form: the tag goes with the old value.
    const binary =
      'pdk_template:\n  version: 2\n  templates: [rubocop]\nrubocop:\n  selected_profile: !!binary aGVsbG8= # mine\n';
    const replaced = await request(
      'POST',
      '/api/edit',
      JSON.stringify({
        syncText: binary,
        template: 'rubocop',
        kind: 'settings',
        settings: { selected_profile: 'strict' },
      }),
    );
    expect(replaced.status).toBe(200);
    expect(JSON.parse(replaced.body)).toMatchObject({
      text: expect.stringContaining('rubocop:\n  selected_profile: strict # mine\n'),
      changed: ['rubocop.selected_profile'],
    });
    expect(snapshotDir(project)).toEqual(before);
  });

  it('refuses a body without a length or not JSON, a Host or Origin of another name, with what to do', async () => {
    const chunked = await raw(
      `POST /api/state HTTP/1.1\r\nhost: 127.0.0.1:${server.port}\r\nx-pantograph-token: ${server.token}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    );
    expect(chunked.status).toBe(413);
    expect(json(chunked).error).toBe('a request body must say its length and be at most 1048576 bytes');
    const host = await request('POST', '/api/state', '{}', { host: `rebound.example:${server.port}` });
    expect(host.status).toBe(403);
    expect(json(host).error).toBe(
      `unknown host: the Host header must be 127.0.0.1:${server.port} or localhost:${server.port}`,
    );
    const origin = await request('POST', '/api/state', '{}', { origin: 'null' });
    expect(origin.status).toBe(403);
    expect(json(origin).error).toBe(
      `cross-origin request refused: only the page of http://127.0.0.1:${server.port} or http://localhost:${server.port} may call the API`,
    );
    // A body of another type is refused for it (it was read as JSON whatever it said it was).
    const types: [string, string][] = [
      ['text/plain', "content-type 'text/plain'"],
      ['application/x-www-form-urlencoded', "content-type 'application/x-www-form-urlencoded'"],
      ['multipart/form-data; boundary=x', "content-type 'multipart/form-data; boundary=x'"],
      ['application/jsonp', "content-type 'application/jsonp'"],
      ['', 'no content-type'],
    ];
    for (const [type, said] of types) {
      const answer = await request('POST', '/api/save', '{"syncText":"x","base":"y"}', {
        'content-type': type,
      });
      expect(answer.status, type).toBe(415);
      expect(json(answer).error).toBe(
        `a request body must be JSON, sent as content-type application/json, not ${said}`,
      );
    }
    const charset = await request('POST', '/api/state', '{}', {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(charset.status).toBe(200);
    // Paths that try to leave are no page (the path names no file).
    for (const path of ['/../../etc/passwd', '/ui.js/..%2f..%2fpackage.json', '//etc/passwd']) {
      expect((await request('GET', path)).status, path).toBe(404);
    }
    expect(snapshotDir(project)).toEqual(before);
  });
});

describe('pantograph ui on a directory that is not there', () => {
  it("says the directory does not exist, as status says it, and starts no server (it said a bare 'ENOENT: lstat')", () => {
    const missing = `${project}-modlue`;
    const started = cli(project, '-C', missing, 'ui', '--port', '0');
    const status = cli(project, '-C', missing, 'status');
    expect(started.status).toBe(1);
    expect(started.stdout).toBe('');
    expect(started.stderr).toBe(
      `error: ${missing} does not exist [SYNC_NOT_FOUND]\n  hint: check the project directory given (-C DIR); \`pantograph init DIR\` creates a new project there\n`,
    );
    expect(started.stderr).toBe(status.stderr);
  });
});

describe('pantograph ui when .sync.yml is a directory', () => {
  it('answers the page, a save and an apply with what the command line says (SYNC_READ, 422), not a 500, and writes nothing', async () => {
    const dir = initProject('ui-hostile-dir-', 'acme-hostile');
    const other = await startUi({ root: dir });
    try {
      const syncText = readFileSync(join(dir, '.sync.yml'), 'utf8');
      rmSync(join(dir, '.sync.yml'));
      mkdirSync(join(dir, '.sync.yml'));
      const snapshot = snapshotDir(dir);
      const status = cli(dir, 'status');
      const message = `cannot read ${join(dir, '.sync.yml')}: EISDIR: illegal operation on a directory, read`;
      expect(status.stderr).toBe(`error: ${message} [SYNC_READ]\n`);
      const post = (path: string, body: object) =>
        fetch(`http://127.0.0.1:${other.port}/api/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-pantograph-token': other.token },
          body: JSON.stringify(body),
        });
      for (const [path, body] of [
        ['state', {}],
        ['save', { syncText, base: 'absent' }],
        ['apply', { syncText, base: 'absent' }],
      ] as const) {
        const answer = await post(path, body);
        expect(answer.status, path).toBe(422);
        expect(await answer.json(), path).toMatchObject({
          error: message,
          problems: [{ severity: 'error', code: 'SYNC_READ', message }],
        });
      }
      expect(snapshotDir(dir)).toEqual(snapshot);
    } finally {
      await other.close();
    }
  });
});

describe('pantograph ui on deeply nested YAML in .sync.yml', () => {
  it('says each error at the place validate says it: a bad value and a schema error 4 levels deep, and nesting too deep (its column moved with the stack left)', async () => {
    const dir = initProject('ui-hostile-deep-', 'acme-hostile');
    const head = readFileSync(join(dir, '.sync.yml'), 'utf8');
    const other = await startUi({ root: dir });
    try {
      const cases = [
        // A value of the wrong type 5 levels down, and one inside a flow list.
        `gemfile:\n  required:\n    ':development':\n      - gem: json\n        platforms: [mswin, 7]\n`,
        // Nesting one level too deep: level 1 the file, 2 gemfile, 3 optional, then the brackets.
        `gemfile:\n  optional:\n    x: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
      ];
      for (const extra of cases) {
        writeFileSync(join(dir, '.sync.yml'), `${head}${extra}`);
        const snapshot = snapshotDir(dir);
        const validate = cli(dir, 'validate', '--format', 'json');
        expect(validate.status).toBe(1);
        const expected = (
          JSON.parse(validate.stdout) as {
            problems: { code: string; line: number; column: number; message: string }[];
          }
        ).problems
          .filter((p) => p.line !== undefined)
          .map((p) => [p.code, p.line, p.column, p.message]);
        expect(expected.length).toBeGreaterThan(0);
        const state = await fetch(`http://127.0.0.1:${other.port}/api/state`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-pantograph-token': other.token },
          body: '{}',
        });
        const answer = (await state.json()) as {
          problems: { code: string; line: number; column: number; message: string }[];
        };
        expect(answer.problems.map((p) => [p.code, p.line, p.column, p.message])).toEqual(expected);
        expect(snapshotDir(dir)).toEqual(snapshot);
      }
      // Level 401 opens at the 398th `[` of x's line (`    x: [`, the first at column 8).
      const line = head.split('\n').length + 2;
      const state = await fetch(`http://127.0.0.1:${other.port}/api/state`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-pantograph-token': other.token },
        body: '{}',
      });
      expect(((await state.json()) as { problems: unknown[] }).problems).toMatchObject([
        {
          code: 'SYNC_YAML',
          line,
          column: 8 + 397,
          message: 'lists and mappings nest deeper than 400 levels',
        },
      ]);
    } finally {
      await other.close();
    }
  });
});

describe("the author's API: each field the type it names", () => {
  it('refuses a template, file or case name that is no string with a 400 naming the field (a list was read as its text)', async () => {
    const repo = newTemplateRepository('ui-hostile-author-', 'greet');
    const author = await startUi({ root: repo, author: true });
    try {
      const snapshot = snapshotDir(repo);
      const post = async (path: string, body: object) => {
        const r = await fetch(`http://127.0.0.1:${author.port}/api/author/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-pantograph-token': author.token },
          body: JSON.stringify(body),
        });
        return { status: r.status, body: (await r.json()) as { error?: string } };
      };
      const cases: [string, object, string][] = [
        [
          'file',
          { template: ['greet'], source: 'files/example.epp' },
          'template must be a string of at most 256 characters',
        ],
        [
          'file',
          { template: 'greet', source: ['files/example.epp'] },
          'source must be a string of at most 4096 characters',
        ],
        ['file', { source: 'files/example.epp' }, 'template must be a string of at most 256 characters'],
        [
          'save',
          { template: 'greet', source: { 0: 'f' }, text: 'x', base: 'y' },
          'source must be a string of at most 4096 characters',
        ],
        ['case', { template: 'greet', case: ['basic'] }, 'case must be a string of at most 256 characters'],
        ['case', { template: 7, case: 'basic' }, 'template must be a string of at most 256 characters'],
      ];
      for (const [path, body, error] of cases) {
        const answer = await post(path, body);
        expect(answer, `${path} ${JSON.stringify(body)}`).toEqual({ status: 400, body: { error } });
      }
      // The same names as strings are what the page sends, and are answered.
      expect((await post('file', { template: 'greet', source: 'files/example.epp' })).status).toBe(200);
      expect(snapshotDir(repo)).toEqual(snapshot);
    } finally {
      await author.close();
    }
  });
});
