/**
 * `pantograph convert [--yes] [--apply]`: converts a PDK templates V1 `.sync.yml` to V2 once
 * (engine/convert.ts). Shows the diff of `.sync.yml`, then writes it with `--yes` or when the user confirms
 * on a terminal; otherwise nothing is written. A project already on V2 is told so. Then, as `pdk convert`
 * goes on to render the templates, it applies them with their diffs: with `--apply`, or when the user
 * says yes on a terminal (apply itself asks before overwriting each file PDK wrote, unless `--yes`).
 */
import { convertSyncFile, writeConversion } from '../../engine/convert.js';
import type { SourceSpec } from '../../engine/model.js';
import { unifiedDiff } from '../../sync/diff.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  jsonProblem,
  printJson,
  printProblems,
  projectDir,
  shortPath,
} from '../report.js';
import { terminalAsk } from '../terminal-ask.js';

export interface ConvertFlags extends EngineFlags {
  readonly yes?: boolean;
  /** Apply the templates right after writing (`pdk convert`'s habit). */
  readonly apply?: boolean;
  /** `--source`: template sources before default, written into `template_sources`. */
  readonly source?: readonly string[];
}

/** Asks a yes/no question; resolves true for yes. */
export type Confirm = (question: string) => Promise<boolean>;

export async function convert(io: Io, global: GlobalOptions, flags: ConvertFlags): Promise<number> {
  return convertWith(io, global, flags, terminalConfirm);
}

/** `convert` with the confirmation injected (tests, other front ends). */
export async function convertWith(
  io: Io,
  global: GlobalOptions,
  flags: ConvertFlags,
  confirm: Confirm,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const conversion = await convertSyncFile(projectDir(io, global), {
      ...(flags.offline === true ? { offline: true } : {}),
      ...(flags.trust === true ? { trust: true } : {}),
      ...(flags.source !== undefined && flags.source.length > 0
        ? { sources: flags.source.map(sourceSpec) }
        : {}),
    });
    const file = shortPath(conversion.file, io.cwd);
    const after = conversion.after;
    const diff =
      after === undefined
        ? ''
        : unifiedDiff(SYNC_NAME, encoder.encode(conversion.before), encoder.encode(after));
    let written = false;
    // Written after the problems are printed: their code frames quote the V1 file as it was.
    const writeNow = () => {
      if (after === undefined || flags.yes !== true) return;
      writeConversion(conversion);
      written = true;
    };
    if (global.format === 'json') {
      writeNow();
      printJson(io, {
        file: conversion.file,
        converted: after !== undefined,
        written,
        templates: conversion.templates,
        unmanaged: conversion.unmanaged,
        delete: conversion.delete,
        excluded: conversion.excluded,
        unconverted: conversion.unconverted,
        moved: conversion.moved,
        convertSettings: conversion.convertSettings,
        coerced: conversion.coerced,
        created: conversion.created,
        dropped: conversion.dropped,
        diff,
        problems: conversion.problems.map(jsonProblem),
      });
      return 0;
    }
    if (after === undefined) {
      io.out(`${file} is already a V2 file (it has \`pdk_template\`); nothing to convert\n`);
      return 0;
    }
    printProblems(io, conversion.problems);
    if (conversion.created) {
      io.out(
        `no ${file}: metadata.json says PDK manages the module, so it is converted as PDK's \`--- {}\`\n`,
      );
    }
    writeNow();
    io.out(diff);
    for (const t of conversion.templates) {
      const how = t.listed ? 'listed in templates' : 'settings only';
      io.out(`template ${t.name} (${how}) <- ${t.files.join(', ')}\n`);
    }
    if (conversion.unmanaged.length > 0) io.out(`unmanaged: ${conversion.unmanaged.join(', ')}\n`);
    if (conversion.delete.length > 0) io.out(`delete: ${conversion.delete.join(', ')}\n`);
    if (conversion.excluded.length > 0) {
      io.out(`excluded (all their files deleted): ${conversion.excluded.join(', ')}\n`);
    }
    if (conversion.unconverted.length > 0) {
      io.out(`not converted (kept as comments): ${conversion.unconverted.join(', ')}\n`);
    }
    for (const m of conversion.moved) io.out(`moved: ${m.from} -> ${m.to}\n`);
    for (const setting of conversion.convertSettings) {
      io.out(`set: ${setting} (so that the project renders what PDK's templates rendered)\n`);
    }
    for (const c of conversion.coerced) {
      io.out(`number: ${c} (the setting takes a number; the V1 templates printed both alike)\n`);
    }
    if (conversion.dropped.length > 0) {
      io.out(`dropped (no effect in PDK, or no equivalent here): ${conversion.dropped.join(', ')}\n`);
    }
    if (!written && io.interactive && (await confirm(`Write the converted ${file}? [y/N] `))) {
      writeConversion(conversion);
      written = true;
    }
    if (!written) {
      io.out(`nothing written; run \`pantograph convert --yes\` to write ${file}\n`);
      return 0;
    }
    io.out(`wrote ${file}\n`);
    const applyNow =
      flags.apply === true ||
      (io.interactive &&
        (await confirm('Apply the templates now (diffs first, then a question per file)? [y/N] ')));
    if (!applyNow) {
      io.out(
        'next: `pantograph status --diff` shows what the templates would change, `pantograph apply` does it\n',
      );
      return 0;
    }
    const { apply } = await import('./apply.js');
    return apply(io, global, [], {
      diff: true,
      ...(flags.yes === true ? { yes: true } : {}),
      ...(flags.offline === true ? { offline: true } : {}),
      ...(flags.trust === true ? { trust: true } : {}),
    });
  });
}

const SYNC_NAME = '.sync.yml';

/** A git URL (`https://`, `ssh://`, `git@host:`, `*.git`) is a git source; anything else a directory. */
function sourceSpec(location: string): SourceSpec {
  const git =
    /^[a-z][a-z0-9+.-]*:\/\//i.test(location) ||
    /^[\w.-]+@[\w.-]+:/.test(location) ||
    location.endsWith('.git');
  return { type: git ? 'git' : 'filesystem', location };
}
const encoder = new TextEncoder();

/** Reads the answer from the terminal (the prompt goes to standard error, keeping stdout for the diff). */
async function terminalConfirm(question: string): Promise<boolean> {
  return /^y(es)?$/i.test((await terminalAsk(question)).trim());
}
