/**
 * `msync update`'s flags as a modulesync user reaches for them in `pantograph fleet apply|update|status`.
 * The ones the fleet has under the same name (`--noop`, `-m/--message`, `-b/--branch`, `--pr`,
 * `--pr-title`, `--pr-labels`) are its own flags; the rest are refused here, each with what the fleet
 * does instead, rather than commander's "unknown option" or a did-you-mean to an unrelated flag. Thor
 * takes both `--remote-branch` and `--remote_branch`: so does this. The mapping is README "Coming from
 * modulesync".
 */
import { type Command, Option } from 'commander';
import { UsageError } from './errors.js';

interface MsyncFlag {
  /** The long name, dashed; its underscored spelling is taken too. */
  readonly name: string;
  /** msync's one-letter alias, when it has one the fleet does not use. */
  readonly short?: string;
  /** Takes a value. */
  readonly value?: boolean;
  /** Also on `fleet status` (it selects repositories); the others only on apply and update. */
  readonly selecting?: boolean;
  readonly why: string;
  readonly hint: string;
}

const CONFIGURATION_HINT =
  'write a fleet file from the configuration once with `pantograph fleet import-modulesync DIR` (managed_modules.yml, modulesync.yml), then run with --fleet FILE';
const RELEASE_HINT =
  "release each module with its own tooling after the pull requests merge (e.g. `pdk release prep`, or the module's release workflow)";

const FLAGS: readonly MsyncFlag[] = [
  {
    name: 'negative-filter',
    short: 'x',
    value: true,
    selecting: true,
    why: 'the fleet leaves repositories out by name glob, not by regular expression',
    hint: "use --exclude GLOB (repeatable), e.g. --exclude 'puppet-legacy*'",
  },
  {
    name: 'remote-branch',
    short: 'r',
    value: true,
    why: 'the fleet pushes the work branch under its own name',
    hint: 'name it with --branch NAME (or `branch:` in the fleet file): the local and the remote branch are one',
  },
  {
    name: 'pr-target-branch',
    value: true,
    why: "a pull request targets its repository's base branch",
    hint: "set `base:` on the repository, or under `defaults:`, in the fleet file (absent: the remote's default branch)",
  },
  { name: 'bump', why: "releases are not the fleet's work", hint: RELEASE_HINT },
  { name: 'changelog', why: "releases are not the fleet's work", hint: RELEASE_HINT },
  { name: 'tag', why: "releases are not the fleet's work", hint: RELEASE_HINT },
  { name: 'tag-pattern', value: true, why: "releases are not the fleet's work", hint: RELEASE_HINT },
  {
    name: 'amend',
    why: 'the fleet never rewrites a commit: each run that changes something adds one on the work branch',
    hint: 'leave it out: a run continues the work branch it pushed before, and one the base has merged starts again from the base',
  },
  {
    name: 'force',
    why: 'the fleet never force-pushes',
    hint: 'leave it out: a run continues the work branch it pushed before (a work branch the base moved past is a conflict, FLEET_OUTDATED)',
  },
  {
    name: 'rebase',
    why: 'the fleet never rebases a work branch',
    hint: 'a work branch the base moved past is reported as a conflict (FLEET_OUTDATED): merge the base into it, or delete it and the next run starts again from the base',
  },
  {
    name: 'skip-broken',
    short: 's',
    why: 'the fleet always goes on past a repository that fails',
    hint: 'leave it out: failed repositories are listed at the end, and make the exit status 1',
  },
  {
    name: 'pre-commit-script',
    value: true,
    why: 'the fleet runs no script of its own before committing',
    hint: "a template's `post` commands (in the repository's .sync.yml) run after apply, before the fleet commits",
  },
  {
    name: 'project-root',
    short: 'c',
    value: true,
    selecting: true,
    why: 'the fleet reads its repositories from a fleet file (the clones go to its `workdir:`)',
    hint: CONFIGURATION_HINT,
  },
  {
    name: 'configs',
    value: true,
    selecting: true,
    why: 'the fleet reads its repositories from a fleet file',
    hint: CONFIGURATION_HINT,
  },
  {
    name: 'managed-modules-conf',
    value: true,
    selecting: true,
    why: 'the fleet reads its repositories from a fleet file',
    hint: CONFIGURATION_HINT,
  },
  {
    name: 'namespace',
    short: 'n',
    value: true,
    selecting: true,
    why: "each repository's URL is in the fleet file",
    hint: CONFIGURATION_HINT,
  },
  {
    name: 'git-base',
    value: true,
    selecting: true,
    why: "each repository's URL is in the fleet file",
    hint: CONFIGURATION_HINT,
  },
];

/** Adds msync's flags to a fleet command, hidden from its help; `writing`: apply and update. */
export function addModulesyncFlags(command: Command, writing: boolean): Command {
  for (const flag of FLAGS) {
    if (!writing && flag.selecting !== true) continue;
    const arg = flag.value === true ? ' <value>' : '';
    const short = flag.short !== undefined ? `-${flag.short}, ` : '';
    command.addOption(new Option(`${short}--${flag.name}${arg}`).hideHelp());
    if (flag.name.includes('-')) {
      command.addOption(new Option(`--${flag.name.replace(/-/g, '_')}${arg}`).hideHelp());
    }
  }
  return command;
}

/** Throws a UsageError for the first of msync's flags given, naming the fleet's way. */
export function refuseModulesyncFlags(flags: Readonly<Record<string, unknown>>): void {
  for (const flag of FLAGS) {
    const dashed = flag.name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const underscored = flag.name.replace(/-/g, '_');
    const given =
      flags[dashed] !== undefined ? dashed : flags[underscored] !== undefined ? underscored : undefined;
    if (given === undefined) continue;
    const spelt = given === dashed ? flag.name : underscored;
    throw new UsageError(`--${spelt} is modulesync's: ${flag.why}`, flag.hint);
  }
}
