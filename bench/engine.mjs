#!/usr/bin/env node
/**
 * Engine overhead benchmark (issue 3): planning a composition of 20 templates with 50 files each
 * (1,000 files), against rendering the same 1,000 files with the bare EPP API, in the same run.
 * Target: the engine's own overhead (settings resolution, composition, file resolution, the plan)
 * is at most 50% on top of the bare renders.
 *
 * Both sides run warm (after warm-up rounds), median of several rounds: the bare side calls `renderEpp` per file (compiled once
 * per source, then cached) with values converted once per template; the engine side plans a loaded
 * project (template files read once). Loading the project from disk (`loadProject`) is reported
 * separately: it is I/O, not planning. The overhead is also printed per file, in microseconds.
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
const ROUNDS = 15;
const WARMUP_ROUNDS = 6;

/**
 * A file of the size template files have in practice (the default templates' files are 20-120 lines):
 * typed parameters, loops, conditionals, interpolation, join, and the top-scope names.
 */
const FILE_SOURCE = `<%- | String $name, Integer $port, Array[String] $hosts, Boolean $enabled,
      Hash[String, String] $labels, Array[Hash[String, Data]] $upstreams | -%>
# <%= $name %>: managed by Pantograph (template <%= $template['name'] %>); changes will be overwritten.
[service]
name = "<%= $name %>"
listen = <%= $port %>
<% if $enabled { -%>
enabled = true
<% } else { -%>
enabled = false
<% } -%>
hosts = [<%= $hosts.map |$h| { "\\"\${h}\\"" }.join(', ') %>]

[labels]
<% $labels.each |$k, $v| { -%>
<%= $k %> = "<%= $v %>"
<% } -%>

<% $upstreams.each |$i, $u| { -%>
[upstream.<%= $u['name'] %>]
# <%= $i + 1 %> of <%= $upstreams.length %>
address = "<%= $u['host'] %>:<%= $u['port'] %>"
weight = <%= $u['weight'] %>
<% if $u['weight'] > 50 { -%>
priority = "high"
<% } -%>
<% unless $u['tags'].empty { -%>
tags = [<%= $u['tags'].join(', ') %>]
<% } -%>

<% } -%>
[summary]
upstreams = <%= $upstreams.length %>
total_weight = <%= $upstreams.reduce(0) |$memo, $u| { $memo + $u['weight'] } %>
`;

const settings = (t) => ({
  name: `service_${t}`,
  port: 8000 + t,
  hosts: ['a.example.com', 'b.example.com', 'c.example.com'],
  enabled: t % 2 === 0,
  labels: { team: 'platform', tier: `t${t % 3}` },
  upstreams: Array.from({ length: 8 }, (_, u) => ({
    name: `u${u}`,
    host: `10.0.${t}.${u}`,
    port: 9000 + u,
    weight: (u * 17) % 100,
    tags: u % 2 === 0 ? ['blue', 'green'] : [],
  })),
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
        const source = `<%# ${names[t]} ${f} %>${FILE_SOURCE}`;
        bare.push({ source, file: `${names[t]}_${f}`, values, topScope });
      }
    }
    const renderBare = () => {
      let bytes = 0;
      // The bare API as a caller uses it: renderEpp (compiled once per source, then cached) per file.
      for (const { source, file, values, topScope } of bare)
        bytes += api.renderEpp(source, values, { file, topScope }).length;
      return bytes;
    };
    // Warm-up: a template's first render is interpreted and its second compiles it (src/epp/interpreter/),
    // and V8 optimises the compiled code over the next few rounds; only rounds after that are measured.
    for (let round = 0; round < WARMUP_ROUNDS; round++) {
      renderBare();
      await api.plan(loaded);
    }

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
      `  engine overhead                     ${(result.overhead * 100).toFixed(0)}%  (target <= 50%: ${result.overhead <= 0.5 ? 'met' : 'MISSED'})`,
    );
    const perFile = ((result.planMs - result.bareRenderMs) / result.files) * 1000;
    console.log(`  overhead per file                   ${perFile.toFixed(1)} µs\n`);
    if (json) console.log(JSON.stringify(result, null, 2));
  } finally {
    if (process.env.BENCH_KEEP) console.log(project);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
