/**
 * `pantograph init --stub [--templates a,b] [--source DIR]... [--stdout]`: a `.sync.yml` with
 * `pdk_template` filled in and every setting of the chosen templates commented out with its default and
 * description (see engine/stub.ts). It writes only `.sync.yml`, and never over an existing one.
 * Without `--templates`, the `always_apply` templates of the sources are chosen.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SourceSpec } from '../../engine/model.js';
import { stubExists, stubSyncConfig } from '../../engine/stub.js';
import { UsageError } from '../errors.js';
import { type Io, loud } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { type EngineFlags, engineCommand, printJson, printProblems, projectDir } from '../report.js';

export interface InitStubFlags extends EngineFlags {
  readonly stub?: boolean;
  /** Comma-separated template names. */
  readonly templates?: string;
  /** Filesystem template sources searched before `default`. */
  readonly source?: readonly string[];
  readonly stdout?: boolean;
}

export async function initStub(io: Io, global: GlobalOptions, flags: InitStubFlags): Promise<number> {
  if (flags.stub !== true) {
    throw new UsageError(
      '`pantograph init` needs --stub for now',
      'run `pantograph init --stub` to write a .sync.yml to start from',
    );
  }
  return engineCommand(io, global, async () => {
    const root = projectDir(io, global);
    const file = join(root, '.sync.yml');
    if (flags.stdout !== true && existsSync(file)) throw stubExists(file);
    const templates = flags.templates
      ?.split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const sources: SourceSpec[] = [
      ...(flags.source ?? []).map((location) => ({ type: 'filesystem' as const, location })),
      { type: 'default', location: 'default' },
    ];
    const stub = await stubSyncConfig({
      root: resolve(root),
      sources,
      ...(templates !== undefined ? { templates } : {}),
      ...(flags.offline === true ? { offline: true } : {}),
      ...(flags.trust === true ? { trust: true } : {}),
    });
    printProblems(io, stub.problems);
    if (flags.stdout === true) {
      if (global.format === 'json') printJson(io, { templates: stub.templates, text: stub.text });
      else loud(io).out(stub.text); // the stub is what was asked for, even under --quiet
      return 0;
    }
    // The directory is made only now: a refused stub (an unknown template, a missing source) leaves nothing.
    mkdirSync(root, { recursive: true });
    // `wx`: fail rather than overwrite a file created since the check above.
    writeFileSync(file, stub.text, { flag: 'wx' });
    if (global.format === 'json') printJson(io, { file, templates: stub.templates });
    else io.out(`wrote ${file} (${stub.templates.length ? stub.templates.join(', ') : 'no templates'})\n`);
    return 0;
  });
}
