/**
 * Issue 13: nothing re-rendered that did not change. After a plan, the next plan of the same project takes
 * each file's output hash from the render cache when its inputs are unchanged (`fromCache`), and renders
 * again exactly the files whose inputs changed: each kind of input is changed once here. A file taken from
 * the cache renders the same bytes as a full render when they are read. Every case runs twice: reading
 * every template file, and with the digest record (template files known by their stat are not read) on a
 * clock a minute ahead, so that files written by the test count as settled.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { loadProject, plan, planProjectAt } from '../../src/index.js';
import { sha256 } from '../../src/sync/hash.js';
import { FileDigests, apply as syncApply } from '../../src/sync/index.js';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

let repo: string;
let project: string;
let env: NodeJS.ProcessEnv;
/** The digest record's file, in the runs that use one. */
let record: string | undefined;

beforeEach(async () => {
  record = undefined;
  repo = tempTree({
    'a/template.json': JSON.stringify({ name: 'a', always_apply: true, default_settings: { x: 1 } }),
    'a/files/one.txt.epp': 'one <%= $x %>\n',
    'a/files/two.txt': 'static\n',
    'a/files/three.txt.epp': "<%= epp('partials/p.epp') -%>",
    'a/partials/p.epp': 'partial\n',
    'b/template.json': JSON.stringify({ name: 'b', always_apply: true }),
    'b/files/b.txt.epp': "b <%= $metadata['name'] %>\n",
    'b/files/calls.txt.epp': "<%= epp('files/b.txt.epp') -%>",
  });
  project = tempTree({
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - { type: filesystem, location: ${repo} }\n`,
    'metadata.json': '{ "name": "acme-x" }\n',
  });
  env = { ...process.env, PANTOGRAPH_CACHE_DIR: tempDir('render-cache-') };
  const first = await planProjectAt(project, { env });
  expect(first.plan.problems).toEqual([]);
  await syncApply(first.plan);
  // The project is not new any more (it has a lock): `$project['is_new']` changed, so all is rendered once.
  expect((await next()).cached).toEqual([]);
});

/** The paths taken from the cache, and those rendered, by the next plan. */
async function next(): Promise<{ cached: string[]; rendered: string[] }> {
  const digests =
    record === undefined ? undefined : FileDigests.open(record, { startedMs: Date.now() + 60_000 });
  const { plan: p } = await planProjectAt(project, { env }, digests ? { digests } : {});
  digests?.save();
  expect(p.problems).toEqual([]);
  const paths = (cached: boolean) =>
    p.files
      .filter((f) => (f.fromCache === true) === cached)
      .map((f) => f.path)
      .sort();
  return { cached: paths(true), rendered: paths(false) };
}

const ALL = ['b.txt', 'calls.txt', 'one.txt', 'three.txt', 'two.txt'];

describe.each([
  ['reading every template file', false],
  ['with the digest record', true],
])('the render cache, %s', (_name, withDigests) => {
  beforeEach(async () => {
    record = withDigests ? join(tempDir('digests-'), 'record.tsv') : undefined;
    await next(); // records the template files' digests
  });

  it('answers every file of an unchanged project, with the hash a full render gives', async () => {
    expect(await next()).toEqual({ cached: ALL, rendered: [] });
    const { plan: cachedPlan } = await planProjectAt(project, { env });
    const full = await plan(await loadProject(project));
    for (const f of full.files) {
      const c = cachedPlan.files.find((x) => x.path === f.path)!;
      expect(c.hash).toBe(sha256(f.content));
      expect(Buffer.from(c.content).equals(Buffer.from(f.content))).toBe(true); // rendered when read
    }
  });

  it("a file's own text: only that file", async () => {
    writeFileSync(join(repo, 'a/files/one.txt.epp'), 'one! <%= $x %>\n');
    expect((await next()).rendered).toEqual(['one.txt']);
    // The same size, the same mtime: the stat still differs (ctime), so the record does not answer.
    const { utimesSync } = await import('node:fs');
    const file = join(repo, 'a/files/one.txt.epp');
    const past = new Date('2024-01-02T03:04:05Z');
    utimesSync(file, past, past);
    expect((await next()).rendered).toEqual([]);
    await new Promise((done) => setTimeout(done, 30));
    writeFileSync(file, 'one? <%= $x %>\n');
    utimesSync(file, past, past);
    expect((await next()).rendered).toEqual(['one.txt']);
  });

  it('the same bytes from another kind of source (a template, a file copied as it is): that file', async () => {
    const { renameSync } = await import('node:fs');
    // `one.txt.epp` becomes `one.txt`: the same bytes, copied instead of rendered.
    renameSync(join(repo, 'a/files/one.txt.epp'), join(repo, 'a/files/one.txt'));
    const copied = await next();
    expect(copied.rendered).toEqual(['one.txt']);
    const { plan: p } = await planProjectAt(project, { env });
    expect(Buffer.from(p.files.find((f) => f.path === 'one.txt')!.content).toString()).toBe(
      'one <%= $x %>\n',
    );
  });

  it("a template's settings: that template's files", async () => {
    writeFileSync(
      join(project, '.sync.yml'),
      `${readFileSync(join(project, '.sync.yml'), 'utf8')}a:\n  x: 2\n`,
    );
    expect((await next()).rendered).toEqual(['one.txt', 'three.txt', 'two.txt']);
  });

  it("a partial, or template.json: that template's files", async () => {
    writeFileSync(join(repo, 'a/partials/p.epp'), 'partial 2\n');
    expect((await next()).rendered).toEqual(['one.txt', 'three.txt', 'two.txt']);
    writeFileSync(
      join(repo, 'b/template.json'),
      JSON.stringify({ name: 'b', version: '2.0.0', always_apply: true }),
    );
    expect((await next()).rendered).toEqual(['b.txt', 'calls.txt']);
  });

  it('an output file another file reads with epp(): the reader too', async () => {
    writeFileSync(join(repo, 'b/files/b.txt.epp'), "bee <%= $metadata['name'] %>\n");
    expect((await next()).rendered).toEqual(['b.txt', 'calls.txt']);
  });

  it("the project's metadata: every file (every template sees $metadata)", async () => {
    writeFileSync(join(project, 'metadata.json'), '{ "name": "acme-y" }\n');
    expect((await next()).rendered).toEqual(ALL);
  });

  it('a hook: its template; a JavaScript hook: always rendered', async () => {
    mkdirSync(join(repo, 'a/hooks'));
    mkdirSync(join(repo, 'b/hooks'));
    writeFileSync(join(repo, 'a/hooks/after_project_settings.pp'), '$state\n');
    expect((await next()).rendered).toEqual(['one.txt', 'three.txt', 'two.txt']);
    expect((await next()).rendered).toEqual([]);
    writeFileSync(join(repo, 'b/hooks/after_project_settings.mjs'), 'export default (s) => s;\n');
    expect((await next()).rendered).toEqual(['b.txt', 'calls.txt']);
    // a JavaScript hook may read anything: its template is rendered on every run
    expect((await next()).rendered).toEqual(['b.txt', 'calls.txt']);
  });

  it('a damaged cache file is ignored: everything is rendered, and the cache written anew', async () => {
    const { readdirSync } = await import('node:fs');
    const dir = join(env.PANTOGRAPH_CACHE_DIR!, 'render');
    for (const damaged of [
      '{"version":1,"files":{"one.txt":["x","y"]}}', // the earlier JSON cache
      `pantograph-render 3\none.txt\t${'0'.repeat(65)}\tnot-a-hash\n`,
    ]) {
      for (const name of readdirSync(dir)) writeFileSync(join(dir, name), damaged);
      expect((await next()).rendered).toEqual(ALL);
      expect((await next()).rendered).toEqual([]);
    }
  });
});

describe('the digest record', () => {
  it('knows every template file after a plan', async () => {
    record = join(tempDir('digests-'), 'record.tsv');
    await next();
    const known = readFileSync(record!, 'utf8')
      .split('\n')
      .slice(1, -1)
      .map((line) => line.split('\t')[0]!);
    expect(known.filter((f) => f.startsWith(repo)).sort()).toEqual(
      [
        'a/files/one.txt.epp',
        'a/files/three.txt.epp',
        'a/files/two.txt',
        'b/files/b.txt.epp',
        'b/files/calls.txt.epp',
      ].map((f) => join(repo, f)),
    );
  });
});
