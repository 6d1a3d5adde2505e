/**
 * `pantograph schema [--output FILE]`: the JSON Schema of this project's `.sync.yml`, composed from the
 * schemas of the templates its sources offer (src/engine/sync-schema.ts), for the YAML language server
 * (`# yaml-language-server: $schema=FILE`) in editors without Pantograph's own server.
 */
import { resolve } from 'node:path';
import { loadProject } from '../../engine/project.js';
import { syncSchemaOf } from '../../engine/sync-schema.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { writeOutputFile } from '../output-file.js';
import { type EngineFlags, engineCommand, projectDir, projectOptions, shortPath } from '../report.js';

export async function schema(
  io: Io,
  global: GlobalOptions,
  flags: EngineFlags & { output?: string },
): Promise<number> {
  return engineCommand(io, global, async () => {
    const project = await loadProject(projectDir(io, global), projectOptions(flags, io));
    const text = `${JSON.stringify(syncSchemaOf(project), null, 2)}\n`;
    if (flags.output === undefined) {
      io.out(text);
      return 0;
    }
    const file = resolve(io.cwd, flags.output);
    writeOutputFile(file, text, io.cwd);
    io.err(
      `wrote ${shortPath(file, io.cwd)}; add to .sync.yml: # yaml-language-server: $schema=${shortPath(file, project.root)}\n`,
    );
    return 0;
  });
}
