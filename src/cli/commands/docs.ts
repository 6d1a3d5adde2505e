/**
 * `pantograph docs [--check] [--dir REPO] [TEMPLATE...]`: writes each template's README.md from its
 * template.json and schema; `--check` writes nothing and exits 1 when a README is out of date (for CI).
 * REPO defaults to the working directory (or, inside a template directory, that template's repository).
 */
import { findRepository, generateReadmes, loadRepository } from '../../engine/docs.js';
import { hasErrors } from '../../engine/validate.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { engineCommand, jsonProblem, plural, printJson, printProblems, shortPath } from '../report.js';

export interface DocsFlags {
  readonly check?: boolean;
}

export async function docs(
  io: Io,
  global: GlobalOptions,
  templates: string[],
  flags: DocsFlags,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const target = findRepository(io.cwd, global.dir);
    const repo = loadRepository(target.dir, templates.length > 0 ? templates : target.selected);
    // A template that does not load cleanly would be documented wrongly: fix it first.
    if (hasErrors(repo.problems)) {
      if (global.format === 'json') printJson(io, { readmes: [], problems: repo.problems.map(jsonProblem) });
      else printProblems(io, repo.problems);
      return 1;
    }
    const check = flags.check === true;
    const results = generateReadmes(repo, { check });
    const outdated = results.filter((r) => r.status === 'outdated');
    if (global.format === 'json') {
      printJson(io, {
        readmes: results.map((r) => ({ template: r.template, file: r.file, status: r.status })),
        problems: repo.problems.map(jsonProblem),
      });
      return outdated.length > 0 ? 1 : 0;
    }
    printProblems(io, repo.problems);
    for (const r of results) {
      if (r.status === 'written') io.out(`wrote ${shortPath(r.file, io.cwd)}\n`);
      if (r.status === 'outdated') io.out(`out of date: ${shortPath(r.file, io.cwd)}\n`);
    }
    if (check && outdated.length > 0) {
      io.err(
        `${plural(outdated.length, 'README')} out of date; run \`pantograph docs\` to regenerate ${outdated.length === 1 ? 'it' : 'them'}\n`,
      );
      return 1;
    }
    const written = results.filter((r) => r.status === 'written').length;
    io.out(
      check
        ? `${plural(results.length, 'README')} up to date\n`
        : `${written} written, ${results.length - written} unchanged\n`,
    );
    return 0;
  });
}
