/**
 * `pantograph test [TEMPLATE...] [--update] [--dir REPO]`: runs the authors' tests of a template
 * repository (`<template>/tests/<case>/`, see engine/template-tests.ts) and prints a diff for every file
 * that differs from `expected/`; `--update` accepts the current output. Exit 1 when a case fails.
 */

import { join } from 'node:path';
import type { TemplateLocation } from '../../engine/model.js';
import type { Problem } from '../../engine/render-plan.js';
import { findRepository, loadRepository } from '../../engine/template-repository.js';
import { type CaseResult, runTemplateTests, testCases } from '../../engine/template-tests.js';
import { hasErrors } from '../../engine/validate.js';
import { type Io, sayErr, sayOut } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  dirOption,
  type EngineFlags,
  engineCommand,
  jsonProblem,
  printJson,
  printProblems,
  projectOptions,
  shortPath,
} from '../report.js';

export interface TestFlags extends EngineFlags {
  readonly update?: boolean;
}

const KIND_TEXT = {
  missing: 'expected, not produced',
  extra: 'produced, not in expected/',
  different: 'differs from expected/',
  mode: 'executable bit differs',
} as const;

export async function test(
  io: Io,
  global: GlobalOptions,
  templates: string[],
  flags: TestFlags,
): Promise<number> {
  return engineCommand(io, global, async () => {
    const target = findRepository(io.cwd, global.dir);
    const repo = loadRepository(target.dir, templates.length > 0 ? templates : target.selected);
    const results = [
      ...(await runTemplateTests(repo.dir, repo.templates, {
        ...projectOptions(flags, io),
        ...(flags.update === true ? { update: true } : {}),
      })),
      ...notRun(repo.unreadable),
    ];
    const broken = hasErrors(repo.problems);
    const failed = results.filter((r) => r.status === 'failed').length;
    const updated = results.filter((r) => r.status === 'updated').length;
    const passed = results.length - failed - updated;
    if (global.format === 'json') {
      printJson(io, {
        cases: results.map(caseJson),
        passed,
        failed,
        updated,
        problems: repo.problems.map(jsonProblem),
      });
      return failed > 0 || broken ? 1 : 0;
    }
    printProblems(io, repo.problems);
    // A mistake of the repository (its schema, its template.json) fails every case of its template too:
    // printed once, above, not again under each case.
    const shown = new Set(repo.problems.map(problemKey));
    const unreadable = new Set(repo.unreadable.map((t) => t.name));
    for (const r of results) {
      const own = r.problems.filter((p) => !shown.has(problemKey(p)));
      printCase(io, { ...r, problems: own });
      if (r.status === 'failed' && r.differences.length === 0 && own.length === 0 && r.problems.length > 0) {
        io.out('  fails on the errors printed above\n');
      }
      if (unreadable.has(r.template)) io.out(`  not run: template '${r.template}' cannot be read (above)\n`);
    }
    if (results.length === 0) io.out(`no test cases in ${shortPath(repo.dir, io.cwd)}/*/tests/\n`);
    io.out(`${passed} passed, ${failed} failed${flags.update === true ? `, ${updated} updated` : ''}\n`);
    const differing = [
      ...new Set(
        results.filter((r) => r.status === 'failed' && r.differences.length > 0).map((r) => r.template),
      ),
    ];
    if (differing.length > 0) {
      // The command to copy: the repository as run and only the templates whose output differs, so that
      // it works from here and accepts nothing the user has not just seen.
      const command = `pantograph test --update${dirOption(repo.dir, io.cwd)} ${differing.join(' ')}`;
      sayErr(io, `hint: when the new output is right, run \`${command}\` to accept it\n`);
    }
    return failed > 0 || broken ? 1 : 0;
  });
}

/**
 * The cases of templates that could not be read (a template.json that is not JSON...): failed, not run,
 * so that they are counted and named rather than left out of the summary.
 */
function notRun(templates: readonly TemplateLocation[]): CaseResult[] {
  return templates.flatMap((t) =>
    testCases(t).map((name) => ({
      template: t.name,
      name,
      dir: join(t.dir, 'tests', name),
      status: 'failed' as const,
      differences: [],
      problems: [],
    })),
  );
}

function problemKey(p: Problem): string {
  return JSON.stringify([p.severity, p.code, p.message, p.file, p.line, p.column]);
}

function printCase(io: Io, r: CaseResult): void {
  const { red, bold } = io.colors;
  const label = `${r.template}/${r.name}`;
  if (r.status === 'passed') {
    io.out(`PASS ${label}\n`);
    printProblems(io, r.problems);
    return;
  }
  if (r.status === 'updated') {
    sayOut(io, `UPDATED ${label}: expected/ rewritten (${r.differences.map((d) => d.path).join(', ')})\n`);
    printProblems(io, r.problems);
    return;
  }
  io.out(`${bold(red('FAIL'))} ${label}\n`);
  printProblems(io, r.problems);
  for (const d of r.differences) {
    io.out(`  ${d.path}: ${KIND_TEXT[d.kind]}\n`);
    io.out(d.diff);
  }
}

function caseJson(r: CaseResult): Record<string, unknown> {
  return {
    template: r.template,
    case: r.name,
    dir: r.dir,
    status: r.status,
    differences: r.differences.map((d) => ({ path: d.path, kind: d.kind, diff: d.diff })),
    problems: r.problems.map(jsonProblem),
  };
}
