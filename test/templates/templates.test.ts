/**
 * The default template repository (`templates/`): every template loads cleanly and documents its settings,
 * every author test case (`<template>/tests/<case>/`) renders exactly its `expected/` tree, and every file
 * the templates produce is valid for the tool that reads it (YAML parses, JSON parses, Ruby passes
 * `ruby -c`, workflows have the shape GitHub and GitLab expect).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { plan } from '../../src/engine/plan.js';
import { loadProject } from '../../src/engine/project.js';
import type { PlannedFile, Problem } from '../../src/engine/render-plan.js';

const TEMPLATES = fileURLToPath(new URL('../../templates', import.meta.url));
const ENV = { ...process.env, PANTOGRAPH_DEFAULT_SOURCE: TEMPLATES };

const ALWAYS = [
  'gemfile',
  'git',
  'module_init',
  'pdk_ignore',
  'puppet_lint',
  'rakefile',
  'rspec',
  'yardopts',
];
const OPT_IN = ['devcontainer', 'editorconfig', 'github_actions', 'gitlab_ci', 'litmus', 'rubocop', 'vscode'];

/** Every file the tests rendered, by a label naming where it came from, for the validity checks. */
const rendered: { label: string; path: string; text: string }[] = [];

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function problemsText(problems: readonly Problem[]): string {
  return problems
    .map((p) => `${p.severity} ${p.code} ${p.file ?? ''}:${p.line ?? ''} ${p.message}`)
    .join('\n');
}

async function render(dir: string): Promise<PlannedFile[]> {
  const project = await loadProject(dir, { env: ENV });
  const result = await plan(project);
  expect(problemsText(result.problems)).toBe('');
  return result.files.filter((f) => !f.empty);
}

function listTree(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, rel)).sort()) {
    const path = rel ? `${rel}/${name}` : name;
    if (statSync(join(root, path)).isDirectory()) out.push(...listTree(root, path));
    else out.push(path);
  }
  return out;
}

function json(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe('the default templates', () => {
  it('are exactly the documented set', () => {
    const dirs = readdirSync(TEMPLATES).filter((n) => statSync(join(TEMPLATES, n)).isDirectory());
    const names = dirs.filter((n) => existsSync(join(TEMPLATES, n, 'template.json')));
    expect(names.sort()).toEqual([...ALWAYS, ...OPT_IN].sort());
    // Besides templates, only the object templates of `pantograph new class|defined_type`.
    expect(dirs.filter((n) => !names.includes(n))).toEqual(['object_templates']);
    for (const name of names) {
      const manifest = json(join(TEMPLATES, name, 'template.json'));
      expect(manifest.name, name).toBe(name);
      expect(manifest.version, name).toBe('1.0.0');
      expect(manifest.always_apply === true, name).toBe(ALWAYS.includes(name));
    }
  });

  it('document every setting in their schema, with type, description and default', () => {
    for (const name of [...ALWAYS, ...OPT_IN]) {
      const manifest = json(join(TEMPLATES, name, 'template.json'));
      const schema = json(join(TEMPLATES, name, 'template_schema.json'));
      expect(schema.$schema, name).toBe('http://json-schema.org/draft-07/schema#');
      const properties = schema.properties as Record<string, Record<string, unknown>>;
      const settings = [
        ...Object.keys((manifest.default_settings as object | undefined) ?? {}),
        ...((manifest.setting_subscriptions as string[] | undefined) ?? []),
      ];
      expect(Object.keys(properties).sort(), name).toEqual([...new Set(settings)].sort());
      for (const [key, prop] of Object.entries(properties)) {
        const where = `${name}.${key}`;
        expect(prop.type, where).toBeDefined();
        expect(typeof prop.description, where).toBe('string');
        expect(Object.hasOwn(prop, 'default'), where).toBe(true);
        // The schema's default documents default_settings (the only source of defaults): they agree.
        const defaults = (manifest.default_settings ?? {}) as Record<string, unknown>;
        if (Object.hasOwn(defaults, key)) expect(prop.default, where).toEqual(defaults[key]);
      }
    }
  });

  it('publish one shared setting with one schema, whoever publishes it', () => {
    const schemas = new Map<string, string>();
    for (const name of OPT_IN.concat(ALWAYS)) {
      const shared = (json(join(TEMPLATES, name, 'template.json')).shared_settings ?? {}) as Record<
        string,
        { schema: unknown }
      >;
      for (const [key, decl] of Object.entries(shared)) {
        const text = JSON.stringify(decl.schema);
        expect(schemas.get(key) ?? text, `${name} publishes ${key}`).toBe(text);
        schemas.set(key, text);
      }
    }
    expect([...schemas.keys()].sort()).toEqual([
      'ci_checks',
      'gems',
      'litmus_platforms',
      'paths',
      'puppet_lint_config',
      'use_litmus',
    ]);
  });
});

describe('author tests', () => {
  const cases = [...ALWAYS, ...OPT_IN].flatMap((t) =>
    readdirSync(join(TEMPLATES, t, 'tests')).map((c) => ({ t, c, dir: join(TEMPLATES, t, 'tests', c) })),
  );

  it('exist for every template', () => {
    for (const name of [...ALWAYS, ...OPT_IN])
      expect(
        cases.some((k) => k.t === name),
        name,
      ).toBe(true);
  });

  it.each(
    cases.map((k) => [`${k.t}/${k.c}`, k.dir]),
  )('%s renders its expected/ tree', async (_label, dir) => {
    const files = await render(dir);
    const expectedDir = join(dir, 'expected');
    expect(files.map((f) => f.path).sort()).toEqual(listTree(expectedDir));
    for (const f of files) {
      const text = Buffer.from(f.content).toString('utf8');
      expect(text, f.path).toBe(readFileSync(join(expectedDir, f.path), 'utf8'));
      rendered.push({ label: `${_label}: ${f.path}`, path: f.path, text });
    }
  });
});

describe('a module with every template', () => {
  it('renders twice alike, the publishers feeding their subscribers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-templates-'));
    dirs.push(dir);
    writeFileSync(
      join(dir, '.sync.yml'),
      `pdk_template:\n  version: 2\n  templates: [${OPT_IN.join(', ')}]\n`,
    );
    writeFileSync(
      join(dir, 'metadata.json'),
      JSON.stringify({ name: 'acme-everything', version: '0.2.0', summary: 'Everything at once.' }),
    );
    const first = await render(dir);
    const second = await render(dir);
    expect(second).toEqual(first);
    const text = (path: string) => {
      const file = first.find((f) => f.path === path);
      expect(file, path).toBeDefined();
      return Buffer.from(file!.content).toString('utf8');
    };
    expect(text('Gemfile')).toMatch(/^ {2}gem 'rubocop', '~> 1\.50\.0', +require: false$/m);
    expect(text('Gemfile')).toMatch(/^group :system_tests do\n {2}gem 'puppet_litmus'/m);
    expect(text('.pdkignore')).toMatch(/^\/provision\.yaml$/m);
    expect(text('.github/workflows/ci.yml')).toContain('check:test_file rubocop\n');
    expect(text('.github/workflows/ci.yml')).toContain('  acceptance:\n');
    expect(text('.gitlab-ci.yml')).toContain('  - acceptance\n');
    expect(text('Rakefile')).toContain("PuppetLint.configuration.send('disable_140chars')");
    expect(text('README.md')).toMatch(/^# everything$/m);
    for (const f of first) {
      rendered.push({
        label: `everything: ${f.path}`,
        path: f.path,
        text: Buffer.from(f.content).toString('utf8'),
      });
    }
  });
});

describe('settings', () => {
  async function planOf(sync: string) {
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-settings-'));
    dirs.push(dir);
    writeFileSync(join(dir, '.sync.yml'), sync);
    return plan(await loadProject(dir, { env: ENV }));
  }

  it('refuse what would break the generated file, at its place in .sync.yml', async () => {
    const result = await planOf(
      "pdk_template:\n  version: 2\ngemfile:\n  gems:\n    - gem: \"it's\"\n      group: 'Bad Group'\n",
    );
    const errors = result.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => [p.code, p.line])).toEqual([
      ['SETTINGS_INVALID', 5],
      ['SETTINGS_INVALID', 6],
    ]);
    expect(result.files.some((f) => f.path === 'Gemfile')).toBe(false);
  });

  it("read rubocop's unquoted `selected_profile: off` (false in YAML 1.1) as 'off', with a warning", async () => {
    const result = await planOf(
      'pdk_template:\n  version: 2\n  templates: [rubocop]\nrubocop:\n  selected_profile: off\n',
    );
    expect(result.problems.map((p) => `${p.severity} ${p.code}`)).toEqual(['warning SYNC_AMBIGUOUS_SCALAR']);
    const rubocop = result.files.find((f) => f.path === '.rubocop.yml');
    expect(Buffer.from(rubocop!.content).toString('utf8')).toContain("# Profile 'off'");
  });

  it('let a project turn litmus off: nothing written or published', async () => {
    const result = await planOf(
      'pdk_template:\n  version: 2\n  templates: [litmus, github_actions]\nlitmus:\n  enabled: false\n',
    );
    expect(result.problems).toEqual([]);
    const paths = result.files.filter((f) => !f.empty).map((f) => f.path);
    expect(paths).not.toContain('provision.yaml');
    const ci = Buffer.from(result.files.find((f) => f.path === '.github/workflows/ci.yml')!.content);
    expect(ci.toString('utf8')).not.toContain('acceptance');
    const gemfile = Buffer.from(result.files.find((f) => f.path === 'Gemfile')!.content);
    expect(gemfile.toString('utf8')).not.toContain('puppet_litmus');
  });
});

// The validity checks run last: they read what the tests above rendered.
describe('generated files', () => {
  const byPath = (re: RegExp) => rendered.filter((r) => re.test(r.path));

  it('include every kind of file checked below', () => {
    expect(byPath(/\.ya?ml$/).length).toBeGreaterThan(20);
    expect(byPath(/\.json$/).length).toBeGreaterThan(3);
    expect(byPath(/(^|\/)(Gemfile|Rakefile)$|\.rb$/).length).toBeGreaterThan(10);
  });

  it('YAML parses, as YAML 1.2 and as YAML 1.1 (Psych)', () => {
    for (const r of byPath(/\.ya?ml$/)) {
      for (const version of ['1.2', '1.1'] as const) {
        const docs = parseAllDocuments(r.text, { version });
        expect(Array.isArray(docs) ? docs.length : 0, r.label).toBe(1);
        const [doc] = docs as unknown as { errors: unknown[] }[];
        expect(doc?.errors, r.label).toEqual([]);
      }
    }
  });

  it('JSON parses', () => {
    for (const r of byPath(/\.json$/)) expect(() => JSON.parse(r.text), r.label).not.toThrow();
  });

  it('Ruby passes ruby -c', () => {
    const version = spawnSync('ruby', ['--version'], { encoding: 'utf8' });
    expect(version.error, 'ruby is needed for this test: apt-get install -y ruby').toBeUndefined();
    const seen = new Set<string>();
    for (const r of byPath(/(^|\/)(Gemfile|Rakefile)$|\.rb$/)) {
      if (seen.has(r.text)) continue;
      seen.add(r.text);
      const check = spawnSync('ruby', ['-c', '-'], { input: r.text, encoding: 'utf8' });
      expect(`${check.status} ${check.stderr}`, r.label).toBe('0 ');
    }
  });

  it('Gemfiles evaluate with Bundler (groups, platforms and sources it accepts)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-gemfile-'));
    dirs.push(dir);
    const seen = new Set<string>();
    const script =
      "require 'bundler'; d = Bundler::Dsl.new; d.eval_gemfile(ENV['BUNDLE_GEMFILE']); " +
      "puts d.dependencies.map { |x| x.name }.join(' ')";
    for (const r of byPath(/^Gemfile$/)) {
      if (seen.has(r.text)) continue;
      seen.add(r.text);
      writeFileSync(join(dir, 'Gemfile'), r.text);
      const run = spawnSync('ruby', ['-e', script], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, BUNDLE_GEMFILE: join(dir, 'Gemfile'), HOME: dir },
      });
      expect(run.stderr, r.label).toBe('');
      expect(run.stdout.trim().split(' '), r.label).toContain('puppet');
    }
    expect(seen.size).toBeGreaterThan(2);
  });

  it('GitHub workflows have triggers and jobs whose steps run or use something', () => {
    const workflows = byPath(/^\.github\/workflows\/.*\.yml$/);
    expect(workflows.length).toBeGreaterThan(3);
    for (const r of workflows) {
      const wf = parseYaml(r.text) as Record<string, unknown>;
      expect(typeof wf.name, r.label).toBe('string');
      expect(wf.on, r.label).toBeTypeOf('object');
      const jobs = Object.entries(wf.jobs as Record<string, Record<string, unknown>>);
      expect(jobs.length, r.label).toBeGreaterThan(0);
      for (const [id, job] of jobs) {
        expect(id, r.label).toMatch(/^[A-Za-z_][A-Za-z0-9_-]*$/);
        if (typeof job.uses === 'string') {
          expect(job.uses, r.label).toMatch(/^\.\/\.github\/workflows\/[a-z_]+\.yml$/);
          const called = workflows.find((w) => job.uses === `./${w.path}`);
          expect(called, `${r.label}: ${job.uses} exists`).toBeDefined();
          expect(Object.hasOwn((parseYaml(called!.text) as { on: object }).on, 'workflow_call')).toBe(true);
          continue;
        }
        expect(typeof job['runs-on'], `${r.label} ${id}`).toBe('string');
        const steps = job.steps as Record<string, unknown>[];
        expect(steps.length, `${r.label} ${id}`).toBeGreaterThan(0);
        for (const step of steps) {
          expect(typeof step.uses === 'string' || typeof step.run === 'string', `${r.label} ${id}`).toBe(
            true,
          );
          if (typeof step.uses === 'string') expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+@v\d+$/);
        }
      }
    }
  });

  it('GitLab pipelines put every job in a declared stage with a script', () => {
    const pipelines = byPath(/^\.gitlab-ci\.yml$/);
    expect(pipelines.length).toBeGreaterThan(1);
    const reserved = new Set(['stages', 'default', 'variables', 'workflow', 'include']);
    for (const r of pipelines) {
      const ci = parseYaml(r.text) as Record<string, Record<string, unknown>>;
      const stages = ci.stages as unknown as string[];
      const jobs = Object.entries(ci).filter(([k]) => !reserved.has(k));
      expect(jobs.length, r.label).toBeGreaterThan(1);
      for (const [id, job] of jobs) {
        expect(stages, `${r.label} ${id}`).toContain(job.stage);
        expect(Array.isArray(job.script), `${r.label} ${id}`).toBe(true);
      }
      expect(new Set(jobs.map(([, j]) => j.stage)), r.label).toEqual(new Set(stages));
    }
  });

  it('carry no banner: as pdk-templates writes them (the lock records what Pantograph manages)', () => {
    for (const r of rendered) expect(r.text, r.label).not.toMatch(/Managed by Pantograph/);
  });
});
