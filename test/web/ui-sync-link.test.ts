/**
 * A project's `.sync.yml` kept as a symbolic link to a file shared between modules (session 34): the web
 * interface's save and apply, and the command line's `add`, write through the link to the shared file
 * (temporary file beside it, renamed), keeping the link; before, each replaced the link with a copy and the
 * sharing silently ended. A link to nothing is refused by both, with where it points, and nothing written.
 * Real projects made by the built CLI, through the real server (no browser).
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startUi, type UiServer } from '../../src/ui/server.js';
import { removeTempDirs, snapshotDir } from '../helpers/fs.js';
import { cli, initProject } from '../helpers/ui-projects.js';

afterAll(() => removeTempDirs());

/** A project whose `.sync.yml` is moved to `shared/sync.yml` beside it, and linked back (`link`). */
function linkedProject(prefix: string): { project: string; shared: string; link: string } {
  const project = initProject(prefix, 'acme-linked');
  const shared = join(dirname(project), 'shared', 'sync.yml');
  const link = '../shared/sync.yml';
  mkdirSync(dirname(shared));
  renameSync(join(project, '.sync.yml'), shared);
  symlinkSync(link, join(project, '.sync.yml'));
  return { project, shared, link };
}

async function post(server: UiServer, path: string, body: object) {
  const r = await fetch(`http://127.0.0.1:${server.port}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pantograph-token': server.token },
    body: JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

const isLink = (file: string) => lstatSync(file).isSymbolicLink();

describe('pantograph ui with .sync.yml linked to a shared file', () => {
  it('saves and applies through the link: the shared file changes, the link stays, no temporary file is left', async () => {
    const { project, shared, link } = linkedProject('ui-link-');
    const server = await startUi({ root: project });
    try {
      const state = await post(server, 'state', {});
      expect(state.status).toBe(200);
      const text = `${String(state.json.syncText)}# shared by every module of the team\n`;
      const saved = await post(server, 'save', { syncText: text, base: state.json.base });
      expect(saved.status).toBe(200);
      expect(isLink(join(project, '.sync.yml'))).toBe(true);
      expect(readlinkSync(join(project, '.sync.yml'))).toBe(link);
      expect(readFileSync(shared, 'utf8')).toBe(text);

      // Apply writes .sync.yml too (under the run lock): through the link as well.
      const edit = await post(server, 'edit', { kind: 'add', template: 'rubocop', syncText: text });
      const added = String(edit.json.text);
      expect(added).toContain('rubocop');
      const preview = await post(server, 'preview', { syncText: added });
      expect(preview.status).toBe(200);
      const applied = await post(server, 'apply', {
        syncText: added,
        base: saved.json.base,
        preview: preview.json.fingerprint,
      });
      expect(applied.status).toBe(200);
      expect(applied.json.ok).toBe(true);
      expect(applied.json.written).toContain('.rubocop.yml');
      expect(readlinkSync(join(project, '.sync.yml'))).toBe(link);
      expect(readFileSync(shared, 'utf8')).toBe(added);
      expect(readdirSync(dirname(shared))).toEqual(['sync.yml']);
      // The next page load reads the shared file, and the command line agrees it is in line.
      expect((await post(server, 'state', {})).json.syncText).toBe(added);
      expect(cli(project, 'status', '--check').status).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('refuses a link to nothing on load, save and apply with where it points (SYNC_READ, 422), as status does, writing nothing', async () => {
    const { project, shared, link } = linkedProject('ui-link-dangling-');
    const syncText = readFileSync(shared, 'utf8');
    renameSync(shared, `${shared}.moved`);
    const server = await startUi({ root: project });
    try {
      const before = snapshotDir(dirname(project));
      const file = join(project, '.sync.yml');
      const message = `${file} is a symbolic link to ${link}, which does not exist: nothing was read or written`;
      const hint =
        "restore the shared file it points to, or replace the link with the project's own .sync.yml";
      const status = cli(project, 'status');
      expect(status.status).toBe(1);
      expect(status.stderr).toBe(`error: ${message} [SYNC_READ]\n  hint: ${hint}\n`);
      for (const [path, body] of [
        ['state', {}],
        ['save', { syncText, base: 'absent' }],
        ['apply', { syncText, base: 'absent' }],
      ] as const) {
        const answer = await post(server, path, body);
        expect(answer.status, path).toBe(422);
        expect(answer.json, path).toMatchObject({
          error: message,
          problems: [{ severity: 'error', code: 'SYNC_READ', message }],
        });
      }
      expect(snapshotDir(dirname(project))).toEqual(before);
    } finally {
      await server.close();
    }
  });
});

describe('pantograph add with .sync.yml linked to a shared file', () => {
  it('adds the template to the shared file and keeps the link, as the web interface does', () => {
    const { project, shared, link } = linkedProject('cli-link-');
    const added = cli(project, 'add', 'template', 'rubocop');
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(readlinkSync(join(project, '.sync.yml'))).toBe(link);
    expect(readFileSync(shared, 'utf8')).toContain('rubocop');
    expect(readdirSync(dirname(shared))).toEqual(['sync.yml']);
  });

  it('refuses a link to nothing with where it points, exit 1, and writes nothing', () => {
    const { project, shared, link } = linkedProject('cli-link-dangling-');
    renameSync(shared, `${shared}.moved`);
    const before = snapshotDir(dirname(project));
    const added = cli(project, 'add', 'template', 'rubocop');
    expect(added.status).toBe(1);
    expect(added.stderr).toContain(
      `error: ${join(project, '.sync.yml')} is a symbolic link to ${link}, which does not exist: nothing was read or written [SYNC_READ]`,
    );
    expect(snapshotDir(dirname(project))).toEqual(before);
  });
});
