/**
 * `pantograph new template <name> [--dir REPO]`: a template skeleton in REPO (default: the working
 * directory) with a generated README and a first test that passes.
 */
import { join } from 'node:path';
import { createTemplate } from '../../engine/scaffold.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  printJson,
  projectDir,
  projectOptions,
  shortPath,
} from '../report.js';

export async function newTemplate(
  io: Io,
  global: GlobalOptions,
  name: string,
  flags: EngineFlags,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const result = await createTemplate(projectDir(io, global), name, projectOptions(flags, io));
    if (global.format === 'json') {
      printJson(io, { template: name, dir: result.dir, files: result.files });
      return 0;
    }
    const dir = shortPath(result.dir, io.cwd);
    io.out(`created template '${name}' in ${dir}:\n`);
    for (const f of result.files) io.out(`  ${join(dir, f)}\n`);
    io.out(
      [
        'next:',
        `  edit ${join(dir, 'template.json')} (description, settings) and ${join(dir, 'files')}/`,
        `  pantograph test ${name} --update   accept the new output as expected`,
        '  pantograph docs                    regenerate the README',
        '',
      ].join('\n'),
    );
    return 0;
  });
}
