/**
 * The command line. Commands are registered here and loaded lazily, so `pantograph epp render` starts as
 * fast as a script that loads one template engine.
 */
import { Argument, Command, Option } from 'commander';
import type { ObjectKind } from '../engine/object-names.js';
import { completionScript, SHELLS, type Shell } from './completion.js';
import { reportError } from './errors.js';
import { type Io, processIo, quietIo } from './io.js';
import { misplacedOptionHint } from './misplaced-option.js';
import { addModulesyncFlags } from './modulesync-flags.js';

export interface GlobalOptions {
  readonly dir?: string;
  readonly format: 'text' | 'json';
  readonly color?: boolean;
  /** `--quiet`: a reporting command prints only its errors (io.ts quietIo). */
  readonly quiet?: boolean;
  /** The command line's arguments as given (what `status` and `apply` keep answers under: command-memo.ts). */
  readonly argv?: readonly string[];
  /** The memo had no answer for these arguments (bin.cjs looked first): `status`/`apply` plan at once. */
  readonly memoMissed?: boolean;
}

/** What the caller of {@link main} knows already. */
export interface MainContext {
  /** bin.cjs looked the memo of `status` or `apply` up and found no answer (fast-answer.ts). */
  readonly memoMissed?: boolean;
}

type Action = (io: Io, global: GlobalOptions, ...args: unknown[]) => Promise<number>;
type EngineFlagsLike = { readonly offline?: boolean; readonly trust?: boolean };

/** Runs the CLI with the given arguments and returns the exit code. */
export async function main(
  argv: readonly string[],
  ioOverride?: Io,
  context: MainContext = {},
): Promise<number> {
  let exitCode = 0;
  let io = ioOverride;
  const program = new Command('pantograph');
  program
    .description('Composable templates, applied to projects like a configuration manager.')
    .version(await versionText(), '-V, --version')
    .option('-C, --dir <dir>', 'the project directory (holding .sync.yml)')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--no-color', 'plain output without colours')
    .option('-q, --quiet', 'print only errors (and what a command exists to print: render, list, JSON...)')
    .showHelpAfterError()
    // A command's --help lists -C, --format, --no-color and -q too: they are written after it as well.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();

  /**
   * Wraps a lazily imported command so every error goes through one reporter. A command that `reports`
   * (status, apply...) prints nothing but its errors under `--quiet` (and `--format text`); one whose
   * output is its product (render, list, show...) prints it all the same.
   */
  const run =
    (load: () => Promise<Action>, output: 'reports' | 'product' = 'reports') =>
    async (...args: unknown[]) => {
      const global: GlobalOptions = { ...program.opts<GlobalOptions>(), argv, ...context };
      io ??= await processIo(global.color === false ? false : undefined);
      const quiet = global.quiet === true && output === 'reports' && global.format === 'text';
      try {
        const action = await load();
        exitCode = await action(quiet ? quietIo(io) : io, global, ...args);
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
    .option('--values-file <file>', 'values from a .json, .yaml or .pp (Puppet code) file')
    .option('-e, --inline <template>', 'render this template text instead of files')
    .option('--no-strict', "Puppet 7's behaviour: unknown variables warn and render empty")
    .option('--no-header', "several templates' outputs run together, without a '--- file' line before each")
    .option('--delimiters <pair>', "other tag delimiters, e.g. '[% %]'")
    .option('--base-dir <dir>', "directory that epp() calls resolve against (default: the template's)")
    .option(
      '--modulepath <dirs>',
      "directories holding modules (':'-separated): their type aliases, Puppet functions and templates",
    )
    .option('--facts <file>', 'a .json or .yaml file of facts: $facts, and each fact a top-scope variable')
    .action(run(async () => (await import('./commands/epp.js')).eppRender as Action, 'product'));
  epp
    .command('validate')
    .description('check EPP syntax; every error as file:line:col')
    .argument('<files...>', 'template files, or directories: every .epp file under them')
    .option('--delimiters <pair>', "other tag delimiters, e.g. '[% %]'")
    .action(run(async () => (await import('./commands/epp.js')).eppValidate as Action));
  epp
    .command('dump')
    .description('print the abstract syntax tree as JSON')
    .argument('<file>', 'template file')
    .option('--delimiters <pair>', "other tag delimiters, e.g. '[% %]'")
    .option('--js', 'print the generated JavaScript instead')
    .action(run(async () => (await import('./commands/epp.js')).eppDump as Action, 'product'));

  // Engine commands (list, show, validate, render, add): options shared by all of them.
  // `v1`: the command plans a project, which may be a V1 one (src/engine/v1).
  const engineOptions = (
    command: Command,
    strict = false,
    v1 = false,
    offlineHelp = 'git sources: use the cache only, never fetch',
  ) => {
    command
      .option('--offline', offlineHelp)
      .option('--trust', 'trust every git source, so that its JavaScript hooks may run');
    if (v1) {
      command
        .option(
          '--template-url <url>',
          'a V1 .sync.yml: render it with this V1 template repository, URL[#REF] or a directory (default: metadata.json template-url, else the one the lock recorded)',
        )
        .option('--template-ref <ref>', "a V1 .sync.yml: the template repository's branch, tag or commit");
    }
    if (strict)
      command.option('--no-strict', "Puppet 7's behaviour: unknown variables warn and render empty");
    return command;
  };
  engineOptions(
    program
      .command('list')
      .description("templates available from the project's sources")
      .option('--tag <tag>', 'only templates with this tag'),
  ).action(run(async () => (await import('./commands/list.js')).list as Action, 'product'));
  engineOptions(
    program
      .command('show')
      .description("a template's settings, values and where they come from, subscriptions and publications")
      .argument('<template>', 'template name'),
    true,
  ).action(run(async () => (await import('./commands/show.js')).show as Action, 'product'));
  engineOptions(
    program
      .command('validate')
      .description('every problem of the project at once; exit 1 on any error')
      .option(
        '--show-nested',
        'also print the tree: templates, files, nested epp() calls and their parameters',
      ),
    true,
    true,
  ).action(run(async () => (await import('./commands/validate.js')).validate as Action));
  engineOptions(
    program
      .command('render')
      .description('the intended output: to standard output, or into a new or empty directory')
      .argument('[paths...]', 'only these project-relative paths (files or directories)')
      .option('-o, --output <dir>', 'write the files into this new or empty directory'),
    true,
    true,
  ).action(run(async () => (await import('./commands/render.js')).render as Action, 'product'));
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

  // Authors' tools (new, docs, test; --dir is the template repository) and the V1 conversion.
  const newCommand = program
    .command('new')
    .description(
      'create a Puppet object (class, defined type, task, fact, function, provider, transport, unit test) in a module as `pdk new` does, or a template (for template authors)',
    );
  newCommand
    .command('template')
    .description('a template skeleton with a README and a first test, in --dir REPO (default: here)')
    .argument('<name>', 'template name (snake_case)')
    .action(run(async () => (await import('./commands/new.js')).newTemplate as Action));
  const objects: [kind: ObjectKind, description: string, name: string][] = [
    [
      'class',
      'a class in manifests/ and its unit test in spec/classes/',
      'class name, e.g. config or ntp::config',
    ],
    [
      'defined_type',
      'a defined type in manifests/ and its unit test in spec/defines/',
      'defined type name, e.g. vhost or ntp::vhost',
    ],
    ['task', 'a task: tasks/<name>.sh and its metadata tasks/<name>.json', 'task name, e.g. install'],
    ['fact', 'a custom fact in lib/facter/ and its unit test', 'fact name, e.g. ntp_servers'],
    [
      'function',
      'a function (Puppet language in functions/, or --type v4: Ruby in lib/puppet/functions/) and its unit test',
      'function name, e.g. to_servers or ntp::to_servers',
    ],
    [
      'provider',
      'a Resource API type and provider in lib/puppet/ and their unit tests',
      'type name, e.g. ntp_peer',
    ],
    [
      'transport',
      'a Resource API transport, its schema and device in lib/puppet/, and their unit tests',
      'transport name, e.g. ntp_appliance',
    ],
    [
      'test',
      'the unit test of an existing class or defined type of manifests/, as `pdk new test --unit` makes it',
      'class or defined type name, e.g. config or ntp::config',
    ],
  ];
  for (const [kind, description, name] of objects) {
    const command = newCommand
      .command(kind)
      .description(kind === 'test' ? description : `${description}, as \`pdk new ${kind}\` makes them`)
      .argument('<name>', name);
    if (kind === 'function') {
      command.addOption(
        new Option('-t, --type <type>', 'native (Puppet language) or v4 (Ruby)').choices(['native', 'v4']),
      );
    }
    if (kind === 'task') command.option('--description <text>', "the task metadata's description");
    if (kind === 'test') command.option('-u, --unit', 'a unit test (the only kind; as PDK, the default)');
    engineOptions(command).action(
      run(async () => {
        const { newObject } = await import('./commands/new.js');
        return ((io: Io, global: GlobalOptions, name: string, flags: EngineFlagsLike) =>
          newObject(io, global, kind, name, flags)) as Action;
      }),
    );
  }
  program
    .command('docs')
    .description("generate each template's README.md from template.json and its schema (--dir REPO)")
    .argument('[templates...]', 'only these templates')
    .option('--check', 'write nothing; exit 1 when a README is out of date')
    .option('--force', 'also replace a README not generated by docs (saved as README.md.pantograph-old)')
    .action(run(async () => (await import('./commands/docs.js')).docs as Action));
  engineOptions(
    program
      .command('test')
      .description("run the templates' tests (<template>/tests/<case>/) of --dir REPO (default: here)")
      .argument('[templates...]', 'only these templates')
      .option('--update', 'accept the current output: rewrite expected/'),
    true,
  ).action(run(async () => (await import('./commands/test.js')).test as Action));
  engineOptions(
    program
      .command('convert')
      .description('convert a PDK templates V1 .sync.yml to V2 once, showing the diff')
      .option('-y, --yes', 'write without asking')
      .option(
        '--apply',
        'then apply the templates, with diffs, as `pdk convert` does (with --yes: also over files PDK wrote)',
      )
      .option(
        '--source <location>',
        'a template source (directory or git URL) searched before default (repeatable)',
        (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
      ),
  ).action(run(async () => (await import('./commands/convert.js')).convert as Action));

  // Applying to a project (status, apply, update, resolve, remove) and `init` (with `--stub`: init-stub.ts).
  engineOptions(
    program
      .command('status')
      .description(
        'every path classified against the project: create, changed, stable, edited, conflict, ...',
      )
      .argument('[paths...]', 'only these project-relative paths, directories or globs')
      .option('--check', 'exit 2 when anything is not in its desired state (drift)')
      .option('--diff', 'show unified diffs of what apply would change')
      .option('-a, --all', 'list stable files too')
      .option('--no-memo', 'plan and check everything, even where nothing changed since a clean answer'),
    true,
    true,
  ).action(run(async () => (await import('./commands/status.js')).status as Action));
  const applyOptions = (command: Command) =>
    command
      .option('--noop', 'write nothing; say what would change')
      .option('--diff', 'show unified diffs')
      .option('--force', 'overwrite hand-edited, conflicting and existing files')
      .option(
        '-y, --yes',
        'overwrite existing files Pantograph never wrote, without asking (not hand-edited ones)',
      );
  engineOptions(
    applyOptions(
      program
        .command('apply')
        .description('bring the project in line with its templates (git sources at their locked commits)')
        .argument('[paths...]', 'only these project-relative paths, directories or globs'),
    ).option(
      '--no-memo',
      'plan and check everything, even where nothing changed since nothing was to change',
    ),
    true,
    true,
  ).action(run(async () => (await import('./commands/apply.js')).apply as Action));
  engineOptions(
    applyOptions(
      program
        .command('update')
        .description('fetch git sources, move the lock to their latest `ref`, and apply'),
    ),
    true,
    true,
  ).action(run(async () => (await import('./commands/update.js')).update as Action));
  program
    .command('resolve')
    .description('accept your content of a managed file (after merging a conflict)')
    .argument('<path>', 'project-relative path')
    .option('--force', 'accept the file even with conflict markers left in it')
    .action(run(async () => (await import('./commands/resolve.js')).resolve as Action));
  program
    .command('remove')
    .description(
      'delete the files Pantograph manages and the empty directories it created; files with your changes are kept',
    )
    .option(
      '--force',
      'also delete files changed by hand or accepted with resolve (each saved as <path>.pantograph-old first)',
    )
    .option('--noop', 'say what would be removed and kept, removing nothing')
    .action(run(async () => (await import('./commands/remove.js')).remove as Action));
  engineOptions(
    program
      .command('init')
      .description(
        'create a Puppet module project from the default templates and apply them (--stub: only a .sync.yml)',
      )
      .argument('[dir]', 'the project directory (default: here; created when missing)')
      .option('--name <author-module>', 'the module name, e.g. acme-ntp (asked on a terminal)')
      .option('--author <name>', 'metadata.json author (default: from --name)')
      .option('--summary <text>', 'metadata.json summary')
      .option('--license <spdx>', 'metadata.json license (default: Apache-2.0)')
      .option(
        '--templates <names>',
        'comma-separated opt-in templates (--stub: the templates to list; default the always_apply ones)',
      )
      .option('--source <dir>', 'a filesystem template source, before default (repeatable)', collect, [])
      .option('-y, --yes', 'ask nothing; overwrite existing files that differ from the templates')
      .option('--stub', 'write only .sync.yml, every setting of the chosen templates commented out')
      .option('--stdout', 'with --stub: print the stub instead of writing .sync.yml'),
    true,
  ).action(run(async () => (await import('./commands/init.js')).init as Action));

  // Many repositories at once (fleet.yml): DESIGN 13a, src/fleet.
  const fleet = program.command('fleet').description('keep many repositories in line at once (fleet.yml)');
  const selectOptions = (command: Command) =>
    command
      .option('--fleet <file>', 'the fleet file (default: fleet.yml)')
      .option('--filter <glob>', 'only repositories whose name matches (repeatable)', collect, [])
      .option('--exclude <glob>', 'leave out repositories whose name matches (repeatable)', collect, [])
      .option('--label <label>', 'only repositories with this label (repeatable: all of them)', collect, [])
      .option('--group <group>', "only the fleet file's group (repeatable)", collect, [])
      .option('--shard <i/n>', 'only shard i of n (a CI matrix job)');
  // `--fresh` ignores the saved state; `update` never uses it (see src/fleet/run.ts).
  const fleetRunOptions = (command: Command, resumable: boolean) => {
    selectOptions(command)
      .option('-j, --jobs <n>', 'repositories worked on at once (default: the number of cores)')
      .option('--diff', 'show unified diffs');
    if (resumable) {
      command.option(
        '--fresh',
        'run every repository again, even those unchanged since the last run (at their locked template commits: `fleet update` takes new ones)',
      );
    }
    return engineOptions(
      command,
      true,
      false,
      'no network: each repository from its clone as the last run fetched it (one not cloned yet fails), git template sources from the cache; no --push or --pr',
    );
  };
  const writeOptions = (command: Command) =>
    command
      .option('--noop', 'write nothing anywhere; say what would change')
      .option(
        '-b, --branch <name>',
        "the branch to commit on (default: the fleet file's, else pantograph/update)",
      )
      .option('-m, --message <text>', 'the commit message (default: names the templates applied)')
      .option('--push', 'push the branches to their remotes')
      .option('--pr', 'open or update a pull (merge) request per changed repository (needs --push)')
      .option('--pr-title <title>', "the pull requests' title (default: the fleet file's pull_request.title)")
      .option(
        '--pr-labels <labels...>',
        "the pull requests' labels, comma- or space-separated (default: the fleet file's pull_request.labels)",
      )
      .addOption(new Option('--pr_title <title>').hideHelp())
      .addOption(new Option('--pr_labels <labels...>').hideHelp())
      .option('-y, --yes', 'overwrite existing files Pantograph never wrote (not hand-edited ones)');
  fleetRunOptions(
    addModulesyncFlags(
      fleet.command('status').description('clone or fetch every repository and report drift (exit 1 on any)'),
      false,
    ),
    true,
  ).action(run(async () => (await import('./commands/fleet.js')).fleetStatus as Action));
  fleetRunOptions(
    writeOptions(
      addModulesyncFlags(
        fleet
          .command('apply')
          .description(
            'apply on a branch per repository, commit, and optionally push and open pull requests',
          ),
        true,
      ),
    ),
    true,
  ).action(run(async () => (await import('./commands/fleet.js')).fleetApply as Action));
  fleetRunOptions(
    writeOptions(
      addModulesyncFlags(
        fleet
          .command('update')
          .description(
            "`update` in every repository: git sources to their ref's latest commit, applied and committed as by apply",
          ),
        true,
      ),
    ),
    false,
  ).action(run(async () => (await import('./commands/fleet.js')).fleetUpdate as Action));
  selectOptions(
    fleet
      .command('plan-matrix')
      .description('print the CI matrix JSON of the shards, e.g. {"include":[{"shard":"1/2"},...]}')
      .option('--per-shard <n>', 'repositories per shard (default 20)')
      .option('--shards <n>', 'this many shards instead (at most one per repository)'),
  ).action(run(async () => (await import('./commands/fleet.js')).fleetPlanMatrix as Action, 'product'));
  fleet
    .command('report')
    .description("merge the shards' JSON reports into one summary (exit 1 if any repository failed)")
    .argument('<files...>', 'reports written by `pantograph --format json fleet status|apply|update`')
    .option('--allow-missing', 'merge even when shards of the run are missing (they are named)')
    .action(run(async () => (await import('./commands/fleet.js')).fleetReport as Action));
  fleet
    .command('import-modulesync')
    .description('write a fleet file from a modulesync configuration (managed_modules.yml, modulesync.yml)')
    .argument('[dir]', 'the modulesync configuration directory (default: here)')
    .option('-o, --output <file>', 'where to write (default fleet.yml; - for standard output)')
    .option('--force', 'replace an existing file')
    .action(run(async () => (await import('./commands/fleet.js')).fleetImportModulesync as Action));

  engineOptions(
    program
      .command('ui')
      .description('the web interface for this project, on 127.0.0.1 (catalogue, settings, preview, apply)')
      .option('--port <n>', 'the port (default: any free one)')
      .option('--open', 'open it in the browser'),
    true,
    true,
  ).action(run(async () => (await import('./commands/ui.js')).ui as Action, 'product'));
  // Editors: the language server (stdio), and the schema of .sync.yml for the YAML language server.
  program
    .command('lsp')
    .description('the language server for EPP, template repositories and .sync.yml, over stdio')
    .option('--trust', "run the project's code (JavaScript hooks, V1 templates) to check .sync.yml")
    .action(run(async () => (await import('./commands/lsp.js')).lsp as Action, 'product'));
  engineOptions(
    program
      .command('schema')
      .description("the JSON Schema of this project's .sync.yml, composed from its templates' schemas")
      .option('-o, --output <file>', 'write it to this file instead of standard output'),
  ).action(run(async () => (await import('./commands/schema.js')).schema as Action, 'product'));

  // Last, so that the script it prints has every command above.
  program
    .command('completion')
    .description('a completion script for your shell: commands, subcommands and options complete on Tab')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .action(async (shell: Shell) => {
      (io ??= await processIo(undefined)).out(completionScript(program, shell));
    });

  try {
    await program.parseAsync(argv as string[], { from: 'user' });
  } catch (e) {
    const code = (e as { exitCode?: number }).exitCode;
    if ((e as { code?: string }).code === 'commander.unknownOption') {
      const hint = misplacedOptionHint(program, argv, (e as Error).message);
      if (hint !== undefined) (io ?? (await processIo(undefined))).err(`hint: ${hint}\n`);
    }
    if (typeof code === 'number') return code === 0 ? 0 : 1;
    io ??= await processIo(undefined);
    return reportError(e, io);
  }
  return exitCode;
}

/** Collects a repeatable option's values. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function versionText(): Promise<string> {
  const { engineVersion } = await import('../version.js');
  return engineVersion();
}
