#!/usr/bin/env node
/**
 * Engine overhead benchmark (issue 3): planning a composition of 20 templates with 50 files each
 * (1,000 files), against rendering the same 1,000 files with the bare EPP API, in the same run.
 * Target: the engine's own overhead (settings resolution, composition, file resolution, the plan)
 * is at most 50% on top of the bare renders.
 *
 * Both sides run warm (templates compiled and cached once), median of several rounds. Loading the
 * project from disk (`loadProject`) is reported separately: it is I/O, not planning.
 *
 * usage: node bench/engine.mjs [--json]      (env BENCH_DIST: another build folder, default dist/)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.env.BENCH_DIST ?? join(root, 'dist'));
const api = await import(pathToFileURL(join(dist, 'index.js')).href);

const TEMPLATES = 20;
const FILES = 50;
const ROUNDS = 9;

/** A small but realistic file: typed parameters, a loop, a conditional, interpolation, join. */
const FILE_SOURCE = `<%- | String $name, Integer $port, Array[String] $hosts, Boolean $enabled, Hash[String, String] $labels | -%>
# <%= $name %> (managed by <%= $template['name'] %>)
listen = <%= $port %>
<% if $enabled { -%>
enabled = true
<% } -%>
hosts = [<%= $hosts.map |$h| { "\\"\${h}\\"" }.join(', ') %>]
<% $labels.each |$k, $v| { -%>
label.<%= $k %> = "<%= $v %>"
<% } -%>
`;

const settings = (t) => ({
  name: `service_${t}`,
  port: 8000 + t,
  hosts: ['a.example.com', 'b.example.com', 'c.example.com'],
  enabled: t % 2 === 0,
  labels: { team: 'platform', tier: `t${t % 3}` },
});

function makeProject() {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-bench-engine-'));
  const repo = join(dir, 'repo');
  const project = join(dir, 'project');
  mkdirSync(project, { recursive: true });
  const names = [];
  for (let t = 0; t < TEMPLATES; t++) {
    const name = `tmpl_${String(t).padStart(2, '0')}`;
    names.push(name);
    const files = join(repo, name, 'files', 'conf');
    mkdirSync(files, { recursive: true });
    writeFileSync(
      join(repo, name, 'template.json'),
      JSON.stringify(
        { name, description: `bench template ${t}`, version: '1.0.0', default_settings: settings(t) },
        null,
        2,
      ),
    );
    // Each file differs by a comment, so the bare side compiles 1,000 distinct sources as the engine does.
    for (let f = 0; f < FILES; f++)
      writeFileSync(join(files, `${name}_${f}.conf.epp`), `<%# ${name} ${f} %>${FILE_SOURCE}`);
  }
  const sync = `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates:\n${names.map((n) => `    - ${n}`).join('\n')}\n`;
  writeFileSync(join(project, '.sync.yml'), sync);
  return { dir, project, names };
}

const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const json = process.argv.includes('--json');
  const { dir, project, names } = makeProject();
  try {
    const loadTimes = [];
    let loaded;
    for (let i = 0; i < 3; i++) {
      const t0 = now();
      loaded = await api.loadProject(project);
      loadTimes.push(now() - t0);
    }
    const first = await api.plan(loaded);
    const errors = first.problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) throw new Error(`bench project has errors: ${errors[0].message}`);
    if (first.files.length !== TEMPLATES * FILES)
      throw new Error(`expected ${TEMPLATES * FILES} files, got ${first.files.length}`);

    // The bare side: the same sources, compiled once, rendered with the same values and top scope.
    const bare = [];
    for (let t = 0; t < TEMPLATES; t++) {
      const values = api.fromJs(settings(t));
      const topScope = api.fromJs({
        settings: settings(t),
        metadata: {},
        project: { name: 'project', is_new: true },
        template: { name: names[t], version: '1.0.0', source: 'repo' },
      });
      for (let f = 0; f < FILES; f++) {
        bare.push({
          template: api.compileEpp(`<%# ${names[t]} ${f} %>${FILE_SOURCE}`, { file: `${names[t]}_${f}` }),
          values,
          topScope,
        });
      }
    }
    const renderBare = () => {
      let bytes = 0;
      for (const { template, values, topScope } of bare)
        bytes += template.render(values, { topScope }).length;
      return bytes;
    };
    renderBare();

    const planTimes = [];
    const bareTimes = [];
    for (let round = 0; round < ROUNDS; round++) {
      let t0 = now();
      renderBare();
      bareTimes.push(now() - t0);
      t0 = now();
      await api.plan(loaded);
      planTimes.push(now() - t0);
    }
    const result = {
      files: first.files.length,
      loadProjectMs: median(loadTimes),
      planMs: median(planTimes),
      bareRenderMs: median(bareTimes),
    };
    result.overhead = result.planMs / result.bareRenderMs - 1;
    console.log(
      `\nEngine benchmark: ${TEMPLATES} templates x ${FILES} files = ${result.files} files, node ${process.version}`,
    );
    console.log(`  loadProject (reads the repository)  ${result.loadProjectMs.toFixed(1)} ms`);
    console.log(`  plan (warm)                         ${result.planMs.toFixed(1)} ms`);
    console.log(`  bare EPP renders of the same files  ${result.bareRenderMs.toFixed(1)} ms`);
    console.log(
      `  engine overhead                     ${(result.overhead * 100).toFixed(0)}%  (target <= 50%: ${result.overhead <= 0.5 ? 'met' : 'MISSED'})\n`,
    );
    if (json) console.log(JSON.stringify(result, null, 2));
  } finally {
    if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
    else console.log(project);
  }
}

await main();
