/**
 * The command line. Commands are registered here and loaded lazily, so `pantograph epp render` starts as
 * fast as a script that loads one template engine.
 */
import { Command, Option } from 'commander';
import { reportError } from './errors.js';
import { type Io, processIo } from './io.js';

export interface GlobalOptions {
  readonly dir?: string;
  readonly format: 'text' | 'json';
  readonly color?: boolean;
}

type Action = (io: Io, global: GlobalOptions, ...args: unknown[]) => Promise<number>;

/** Runs the CLI with the given arguments and returns the exit code. */
export async function main(argv: readonly string[], ioOverride?: Io): Promise<number> {
  let exitCode = 0;
  let io = ioOverride;
  const program = new Command('pantograph');
  program
    .description('Composable templates, applied to projects like a configuration manager.')
    .version(await versionText(), '-V, --version')
    .option('-C, --dir <dir>', 'the project directory (holding .sync.yml)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'plain output without colours')
    .showHelpAfterError()
    .exitOverride();

  /** Wraps a lazily imported command so every error goes through one reporter. */
  const run =
    (load: () => Promise<Action>) =>
    async (...args: unknown[]) => {
      const global = program.opts<GlobalOptions>();
      io ??= await processIo(global.color === false ? false : undefined);
      try {
        const action = await load();
        exitCode = await action(io, global, ...args);
      } catch (e) {
        exitCode = reportError(e, io);
      }
    };

  const epp = program.command('epp').description('standalone EPP templates, compatible with `puppet epp`');
  epp
    .command('render')
    .description('render EPP templates to standard output')
    .argument('[files...]', 'template files')
    .option('--values <hash>', 'values as a Puppet hash literal or JSON object')
    .option('--values-file <file>', 'values from a .json or .yaml file')
    .option('-e, --inline <template>', 'render this template text instead of files')
    .option('--no-strict', "Puppet 7's behaviour: unknown variables warn and render empty")
    .option('--delimiters <pair>', "other tag delimiters, e.g. '[% %]'")
    .option('--base-dir <dir>', 'directory that epp() calls resolve against (default: the template\'s)')
    .action(run(async () => (await import('./commands/epp.js')).eppRender as Action));
  epp
    .command('validate')
    .description('check EPP syntax; every error as file:line:col')
    .argument('<files...>', 'template files')
    .option('--delimiters <pair>', "other tag delimiters, e.g. '[% %]'")
    .action(run(async () => (await import('./commands/epp.js')).eppValidate as Action));
  epp
    .command('dump')
    .description('print the abstract syntax tree as JSON')
    .argument('<file>', 'template file')
    .option('--delimiters <pair>', "other tag delimiters, e.g. '[% %]'")
    .option('--js', 'print the generated JavaScript instead')
    .action(run(async () => (await import('./commands/epp.js')).eppDump as Action));

  // Engine commands (list, show, validate, render, add): options shared by all of them.
  const engineOptions = (command: Command, strict = false) => {
    command
      .option('--offline', 'git sources: use the cache only, never fetch')
      .option('--trust', 'trust every git source, so that its JavaScript hooks may run');
    if (strict)
      command.option('--no-strict', "Puppet 7's behaviour: unknown variables warn and render empty");
    return command;
  };
  engineOptions(
    program
      .command('list')
      .description("templates available from the project's sources")
      .option('--tag <tag>', 'only templates with this tag'),
  ).action(run(async () => (await import('./commands/list.js')).list as Action));
  engineOptions(
    program
      .command('show')
      .description("a template's settings, values and where they come from, subscriptions and publications")
      .argument('<template>', 'template name'),
    true,
  ).action(run(async () => (await import('./commands/show.js')).show as Action));
  engineOptions(
    program.command('validate').description('every problem of the project at once; exit 1 on any error'),
    true,
  ).action(run(async () => (await import('./commands/validate.js')).validate as Action));
  engineOptions(
    program
      .command('render')
      .description('the intended output: to standard output, or into a new or empty directory')
      .argument('[paths...]', 'only these project-relative paths (files or directories)')
      .option('-o, --output <dir>', 'write the files into this new or empty directory'),
    true,
  ).action(run(async () => (await import('./commands/render.js')).render as Action));
  const add = program.command('add').description('edit .sync.yml, keeping its comments and order');
  engineOptions(
    add.command('template').description('apply one more template').argument('<name>', 'template name'),
  ).action(run(async () => (await import('./commands/add.js')).addTemplate as Action));
  engineOptions(
    add
      .command('source')
      .description('add a template source before `default`')
      .argument('<type>', 'filesystem or git')
      .argument('[settings...]', 'location=... [ref=...] [trusted=true]'),
  ).action(run(async () => (await import('./commands/add.js')).addSource as Action));

  try {
    await program.parseAsync(argv as string[], { from: 'user' });
  } catch (e) {
    const code = (e as { exitCode?: number }).exitCode;
    if (typeof code === 'number') return code === 0 ? 0 : 1;
    io ??= await processIo(undefined);
    return reportError(e, io);
  }
  return exitCode;
}

async function versionText(): Promise<string> {
  const { engineVersion } = await import('../version.js');
  return engineVersion();
}
