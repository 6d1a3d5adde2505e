/**
 * `pantograph new template <name> [--dir REPO]`: a template skeleton in REPO (default: the working
 * directory) with a generated README and a first test that passes. `pantograph new
 * class|defined_type|task|fact|function|provider|transport|test <name>`: a Puppet object and its tests in
 * the module, as `pdk new` makes them (engine/objects.ts).
 */
import { join } from 'node:path';
import { createObject, type ObjectKind, type ObjectOptions } from '../../engine/objects.js';
import { createTemplate } from '../../engine/scaffold.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  dirOption,
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
    // The next steps run as printed from here: with -C when the repository is another directory.
    const repo = dirOption(projectDir(io, global), io.cwd);
    const steps: [string, string][] = [
      [`pantograph test ${name} --update${repo}`, 'accept the new output as expected'],
      [`pantograph docs${repo}`, 'regenerate the README'],
    ];
    const width = Math.max(...steps.map(([command]) => command.length)) + 3;
    io.out(
      [
        'next:',
        `  edit ${join(dir, 'template.json')} (description, settings) and ${join(dir, 'files')}/`,
        ...steps.map(([command, what]) => `  ${command.padEnd(width)}${what}`),
        '',
      ].join('\n'),
    );
    return 0;
  });
}

export async function newObject(
  io: Io,
  global: GlobalOptions,
  kind: ObjectKind,
  name: string,
  flags: EngineFlags & ObjectOptions,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const made = await createObject(projectDir(io, global), kind, name, {
      ...projectOptions(flags, io),
      ...(flags.type !== undefined ? { type: flags.type } : {}),
      ...(flags.description !== undefined ? { description: flags.description } : {}),
    });
    if (global.format === 'json') {
      printJson(io, { kind, name: made.name, root: made.root, files: made.files });
      return 0;
    }
    // paths are the module's; from one of its subdirectories, say which module
    const where = made.root === projectDir(io, global) ? '' : ` in ${shortPath(made.root, io.cwd)}`;
    io.out(`created ${made.label} ${made.name}${where}:\n`);
    for (const f of made.files) io.out(`  ${f}\n`);
    return 0;
  });
}
