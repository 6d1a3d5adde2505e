/**
 * The worker in which the language server checks documents (checker.ts): an EPP template, a template
 * repository's `template.json` / `template_schema.json`, a project's `.sync.yml`; and in which it parses
 * an EPP text for a hover, a definition, symbols or a completion (epp-query.ts). A check may run for ever
 * on a hostile file (a parameter default matched against `Pattern[/^(a+)+$/]` backtracks for hours, a
 * trusted template may loop); here the server can terminate it at its time limit and stay responsive.
 *
 * A `.sync.yml` check validates the project as `pantograph validate` does. The engine reads the template
 * repository's files from disk; the editor's unsaved buffers of those files come with the job and are
 * read instead (`readFileSync` of this worker, which runs nothing else, answers them).
 */
import { syncBuiltinESMExports } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { EngineError } from '../engine/errors.js';
import {
  checkEppText,
  checkTemplateManifestText,
  checkTemplateSchemaText,
  type EppCheck,
  type SpanProblem,
  type TemplateContext,
} from '../engine/file-checks.js';
import { planDetailed } from '../engine/plan.js';
import { loadProject, locateV1Repository, type ProjectOptions } from '../engine/project.js';
import { type SettingView, settingViews } from '../engine/setting-views.js';
import { validateProject } from '../engine/validate.js';
import type { CheckJob, CheckReply, CheckResult, EppTemplateAnswer, EppTemplateJob } from './checker.js';
import { answerEppQuery } from './epp-query.js';
import { outlineOf, v1Outline } from './project-outline.js';
import { contextFromTexts, partOf, summaryOf } from './template-summary.js';
import { untrustedV1Problems } from './v1-untrusted.js';

/** The unsaved buffers of the running `.sync.yml` check, by absolute path. */
let overlay: ReadonlyMap<string, string> = new Map();

const fs = process.getBuiltinModule('node:fs') as typeof import('node:fs');
const readFileSync = fs.readFileSync;
fs.readFileSync = function read(this: unknown, ...args: Parameters<typeof readFileSync>) {
  const [path, options] = args;
  const text = typeof path === 'string' ? overlay.get(path) : undefined;
  if (text === undefined) return readFileSync.apply(this, args as never);
  const encoding = typeof options === 'string' ? options : options?.encoding;
  return encoding ? text : Buffer.from(text);
} as typeof readFileSync;
syncBuiltinESMExports();

/** At most this many problems travel back (the server shows fewer; the rest are counted). */
const MAX_PROBLEMS = 1000;

function capped<T>(problems: readonly T[]): { problems: T[]; more: number } {
  return {
    problems: problems.slice(0, MAX_PROBLEMS),
    more: Math.max(0, problems.length - MAX_PROBLEMS),
  };
}

/** What `show` says of a template's settings; one the project does not apply is planned as if added last. */
async function views(
  root: string,
  options: ProjectOptions,
  name: string,
): Promise<SettingView[] | undefined> {
  const project = await loadProject(root, options);
  const t = project.available.get(name);
  if (!t) return undefined;
  const planned = project.applied.includes(t) ? project : { ...project, applied: [...project.applied, t] };
  const resolved = (await planDetailed(planned)).templates.find((r) => r.template === t);
  return resolved ? settingViews(planned, resolved) : undefined;
}

/**
 * The context of an EPP file's template, from the texts the server sent: while they do not parse, the
 * last that did (a file of a template whose files are too large is checked as a file of no template).
 */
function templateOf(
  sent: EppTemplateJob,
  file: string,
): { context: TemplateContext | undefined; answer: EppTemplateAnswer } {
  const current = contextFromTexts(sent.texts);
  const made = !current.broken
    ? current.context
    : sent.lastGood
      ? contextFromTexts(sent.lastGood).context
      : sent.texts.tooLarge
        ? undefined
        : current.context;
  const context = made && { ...made, part: partOf(made.dir, file) };
  const summary = sent.wantSummary ? { summary: context ? summaryOf(context) : null } : {};
  return { context, answer: { broken: current.broken, ...summary } };
}

async function run(job: CheckJob): Promise<CheckResult> {
  switch (job.kind) {
    case 'epp': {
      const template = job.template && templateOf(job.template, job.file);
      const check: EppCheck = checkEppText(job.text, job.file, template?.context, job.modulePath);
      return {
        kind: 'epp',
        parsed: check.ast !== undefined,
        ...capped<SpanProblem>(check.problems),
        ...(template ? { template: template.answer } : {}),
      };
    }
    case 'epp-query':
      return { kind: 'epp-query', ...answerEppQuery(job) };
    case 'template-file': {
      const problems = job.file.endsWith('template_schema.json')
        ? checkTemplateSchemaText(job.text, job.file)
        : checkTemplateManifestText(job.text, job.file);
      return { kind: 'template-file', ...capped(problems) };
    }
    case 'sync': {
      overlay = new Map(job.overlay);
      try {
        const options = { ...job.options, syncText: job.text };
        if (job.views !== undefined)
          return { kind: 'views', views: await views(job.root, options, job.views) };
        if (job.outline) {
          try {
            return { kind: 'outline', outline: outlineOf(await loadProject(job.root, options)) };
          } catch (e) {
            if (!(e instanceof EngineError)) throw e;
            // Its Ruby does not run here, but its data says which files and settings there are.
            if (e.code === 'V1_UNTRUSTED' && options.distrust) {
              const located = await locateV1Repository(job.root, options);
              if (located)
                return {
                  kind: 'outline',
                  outline: { root: job.root, sources: [], templates: [], v1: v1Outline(located, false) },
                };
            }
            return { kind: 'outline', outline: undefined };
          }
        }
        const result = await validateProject(job.root, options);
        const problems = result.problems.slice();
        // A V1 file whose Ruby does not run here still gets what its data says (its YAML, keys PDK ignores).
        if (options.distrust && problems.some((p) => p.code === 'V1_UNTRUSTED'))
          problems.push(...(await untrustedV1Problems(job.root, options, job.text)));
        return { kind: 'sync', problems };
      } finally {
        overlay = new Map();
      }
    }
  }
}

parentPort!.on('message', async ({ id, job }: { id: number; job: CheckJob }) => {
  let reply: CheckReply;
  try {
    reply = { id, result: await run(job) };
  } catch (e) {
    reply = { id, failure: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true });
