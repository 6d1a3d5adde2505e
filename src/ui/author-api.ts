/**
 * The web interface on a template repository (`pantograph ui -C REPO`): the author edits a template's
 * files and sees a test case (`<template>/tests/<case>/`) rendered beside its expected output. Only files
 * the loader lists for a template (outputs, partials, hooks, its `template_schema.json` and
 * `template.json`) can be read or written, named by template and source path: a request never names a
 * path on disk.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Hono } from 'hono';
import type { LoadedTemplate } from '../engine/model.js';
import type { Problem } from '../engine/render-plan.js';
import { manifestErrors } from '../engine/repository.js';
import { writeAtomically } from '../engine/sync-text-edit.js';
import { loadRepository } from '../engine/template-repository.js';
import { runCase, testCases } from '../engine/template-tests.js';
import { engineVersion } from '../version.js';
import { BadRequest, errorAnswer, jsonObject, problemsIn, Refused, stringField } from './request.js';
import { hashOf } from './sync-base.js';

const MAX_TEXT = 512 * 1024;
const MANIFEST = 'template.json';
/** A template's, a case's name: a directory's. A file's path inside a template: a few of them. */
const MAX_NAME = 256;
const MAX_PATH = 4096;

/**
 * The template and file a request names, each a string or a 400 naming it (`["greet"]` was `String()`ed
 * into `greet`, where the project's API refuses a name that is no string).
 */
function fileRequest(body: Record<string, unknown>): { template: string; source: string } {
  return { template: stringField(body, 'template', MAX_NAME), source: stringField(body, 'source', MAX_PATH) };
}

export function authorApi(repoDir: string, options: { readonly strict?: boolean } = {}): Hono {
  const app = new Hono();
  const repository = () => loadRepository(repoDir);
  const template = (name: string): LoadedTemplate | undefined => repository().all.get(name);
  const editable = editableFiles;

  app.post('/repository', (c) =>
    c.json({
      dir: repoDir,
      // The page's Strict variables starts as `pantograph ui` was told (`--no-strict`: unticked).
      strict: options.strict !== false,
      templates: [...repository().all.values()].map((t) => ({
        name: t.name,
        files: editable(t),
        cases: testCases(t),
      })),
    }),
  );

  app.post('/file', async (c) => {
    const { template: name, source } = fileRequest(await jsonObject(c));
    const t = template(name);
    if (!t || !editable(t).includes(source)) return c.json({ error: 'no such template file' }, 404);
    const bytes = readFileSync(join(t.dir, source));
    // `base`: what a save of this file says it was edited from (the file as read here, or last saved).
    return c.json({ text: bytes.toString('utf8'), base: hashOf(bytes) });
  });

  /**
   * Writes a template file, keeping its mode (an executable template stays executable), only when it is
   * still what the page loaded (`base`): an author often has the file open in an editor too, whose save
   * must not be dropped (409, nothing written; the page offers to reload the file).
   */
  app.post('/save', async (c) => {
    const body = await jsonObject(c);
    const { text, base } = body;
    const { template: name, source } = fileRequest(body);
    const t = template(name);
    if (!t || !editable(t).includes(source)) return c.json({ error: 'no such template file' }, 404);
    if (typeof text !== 'string' || text.length > MAX_TEXT)
      throw new BadRequest(`text must be a string of at most ${MAX_TEXT} characters`);
    if (typeof base !== 'string' || base.length > 64)
      throw new BadRequest(
        'base is required: the `base` /api/author/file gave with the text (or a save gave)',
      );
    const file = join(t.dir, source);
    const current = readFileSync(file);
    if (hashOf(current) !== base) {
      throw new Refused(
        'FILE_CHANGED',
        `${t.name}/${source} was changed on disk after this page opened it (in an editor?): nothing was written`,
        "reload the file to start from it as it is now (the page's unsaved edits are dropped), or copy your edits first",
      );
    }
    const saved = withLineEnds(text, current.toString('utf8'));
    // A template.json that would not load is never written: the template would drop from the repository,
    // and from the page with the file being edited. Its problems are at their lines in the text sent.
    const errors = source === MANIFEST ? manifestErrors(saved, t.manifestFile, t.name) : [];
    // A `requires` this Pantograph is outside of is the author's to choose (a template made for the next
    // release): the template still loads, so the file is written and the page says what it means.
    const outside = errors.filter((p) => p.code === 'TEMPLATE_REQUIRES');
    const broken = errors.filter((p) => !outside.includes(p));
    if (broken.length > 0) {
      const said = broken.length === 1 ? 'it has an error' : `it has ${broken.length} errors`;
      return c.json(
        {
          saved: false,
          error: `${t.name}/${MANIFEST} was not saved: ${said}, and the template would not load`,
          hint: 'fix it where shown: the next pause saves it; until then the file on disk, and the test case, stay as last saved',
          problems: broken.map(problemsIn(repoDir)),
        },
        422,
      );
    }
    writeAtomically(file, saved);
    return c.json({
      saved: true,
      base: hashOf(Buffer.from(saved, 'utf8')),
      ...(outside.length > 0 ? { warning: requiresWarning(t.name, outside, repoDir) } : {}),
    });
  });

  /** One test case run: pass or fail, the differences, and both sides' files for a side-by-side view. */
  app.post('/case', async (c) => {
    const body = await jsonObject(c);
    const { strict } = body;
    const name = stringField(body, 'template', MAX_NAME);
    const caseName = stringField(body, 'case', MAX_NAME);
    const t = template(name);
    if (!t || !testCases(t).includes(caseName)) return c.json({ error: 'no such test case' }, 404);
    if (strict !== undefined && typeof strict !== 'boolean')
      throw new BadRequest('strict must be true or false');
    // The page's Strict variables, else as `pantograph ui` was told: unticked, as `pantograph test --no-strict`.
    const strictness = strict ?? options.strict !== false;
    const result = await runCase(repoDir, t, caseName, {
      keepOutputs: true,
      ...(strictness ? {} : { strict: false }),
    });
    return c.json({
      status: result.status,
      differences: result.differences,
      // Named from the repository, as `pantograph test` names them there.
      problems: result.problems.map(problemsIn(repoDir)),
      outputs: result.outputs ?? { actual: {}, expected: {} },
    });
  });
  app.onError((e, c) => errorAnswer(e, c, repoDir));
  return app;
}

/**
 * What a saved template.json whose `requires` leaves out this Pantograph means to its author: not an
 * error of the file (it loads), but this Pantograph can neither apply the template nor run its cases.
 */
function requiresWarning(name: string, problems: readonly Problem[], repoDir: string) {
  return {
    message: `${name}/${MANIFEST} is saved, but its requires leaves out this Pantograph (${engineVersion()}): no project can apply the template with this Pantograph, and its test cases fail here`,
    problems: problems.map((p) => ({
      ...problemsIn(repoDir)(p),
      severity: 'warning',
      hint: `if the template works with Pantograph ${engineVersion()}, widen the range to include it; else test it with a Pantograph the range allows (the file is saved as you wrote it)`,
    })),
  };
}

/**
 * The text a page sends, with the file's CRLF line ends when every line of the file has them: a browser's
 * text field gives its text with LF whatever it was given, and a save must not turn a CRLF template into
 * an LF one (its output would change with it). A file that mixes both is saved as the page sends it.
 */
export function withLineEnds(text: string, current: string): string {
  const crlf = current.includes('\r\n') && !/(^|[^\r])\n/.test(current);
  return crlf && !text.includes('\r') ? text.replace(/\n/g, '\r\n') : text;
}

/**
 * The files of a template an author may open, by path inside the template: its outputs and partials, then
 * what the guide has them write beside: its hooks and its schema (a schema that does not parse is still
 * listed, so that it can be fixed here), and its template.json (a save of it that would not load is
 * refused: see `/save`).
 */
export function editableFiles(t: LoadedTemplate): string[] {
  const hooks = Object.values(t.hooks).map((h) => relative(t.dir, h.path));
  const schema = t.schemaFile !== undefined ? [relative(t.dir, t.schemaFile)] : [];
  return [...t.files.map((f) => f.source), ...t.partials, ...hooks.sort(), ...schema, MANIFEST];
}
