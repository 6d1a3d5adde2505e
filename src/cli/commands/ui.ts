/**
 * `pantograph ui [--port N] [--open] [--no-strict] [--template-url URL]`: the web interface for this project (or, in a template repository,
 * the author's view), until interrupted. The URL it prints carries the token every request needs.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadSyncConfig, SYNC_FILE } from '../../engine/project-config.js';
import { loadRepository } from '../../engine/template-repository.js';
import { startUi } from '../../ui/server.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { type EngineFlags, projectDir } from '../report.js';

export interface UiFlags extends EngineFlags {
  readonly port?: string;
  readonly open?: boolean;
}

export async function ui(io: Io, global: GlobalOptions, flags: UiFlags): Promise<number> {
  const port = flags.port === undefined ? 0 : Number(flags.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`error: --port must be a port number, not '${flags.port}'\n`);
    return 1;
  }
  const root = projectDir(io, global);
  // No .sync.yml but templates: a template repository, opened for its author. A directory that does not
  // exist is neither (looking for templates in it said a bare `ENOENT: ... lstat`).
  const author = !existsSync(join(root, SYNC_FILE)) && existsSync(root) && loadRepository(root).all.size > 0;
  // Neither a project nor a template repository (a wrong -C): refused as `status` refuses it
  // (SYNC_NOT_FOUND, with its hint), rather than serving a page that can only say so.
  if (!author && !existsSync(join(root, SYNC_FILE))) loadSyncConfig(root);
  const server = await startUi({
    root,
    author,
    ...(flags.offline === true ? { offline: true } : {}),
    ...(flags.trust === true ? { trust: true } : {}),
    ...(flags.strict === false ? { strict: false } : {}),
    ...(flags.templateUrl !== undefined ? { templateUrl: flags.templateUrl } : {}),
    ...(flags.templateRef !== undefined ? { templateRef: flags.templateRef } : {}),
    port,
  });
  io.out(
    `Pantograph's web interface for this ${author ? 'template repository' : 'project'} (Ctrl-C stops it):\n  ${server.url}\n`,
  );
  if (flags.open === true) {
    const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
    spawn(opener, [server.url], { stdio: 'ignore', detached: true })
      .on('error', () => undefined)
      .unref();
  }
  await new Promise<void>((resolvePromise) => {
    const stop = () => void server.close().then(resolvePromise);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
