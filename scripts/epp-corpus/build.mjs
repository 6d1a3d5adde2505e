#!/usr/bin/env node
/**
 * Rebuilds the corpus of real EPP templates (test/fixtures/epp-corpus, issue 12 item 4): every
 * `templates/**\/*.epp` of the public modules below, with values synthesised from each template's declared
 * parameter types, and what real Puppet 7 renders for them (expected.txt, or expected_error.txt when
 * Puppet fails), with puppetlabs-stdlib and the module itself on the modulepath.
 *
 *   node scripts/epp-corpus/build.mjs MIRRORS_DIR     (needs `puppet`; MIRRORS_DIR holds owner+name/repo git dirs,
 *                                                      as the tool library's fetch leaves them)
 *
 * Each module keeps its licence beside its templates (LICENSE, and NOTICE.md naming the source and commit).
 * Only modules whose metadata.json says Apache-2.0 or MIT are taken.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEpp } from '../../dist/epp/index.js';

const MODULES = [
  'puppetlabs/puppetlabs-apache',
  'puppetlabs/puppetlabs-postgresql',
  'puppetlabs/puppetlabs-mysql',
  'voxpupuli/puppet-nginx',
  'voxpupuli/puppet-prometheus',
  'voxpupuli/puppet-redis',
  'voxpupuli/puppet-systemd',
  'voxpupuli/puppet-keepalived',
  'voxpupuli/puppet-chrony',
];
const STDLIB = 'puppetlabs/puppetlabs-stdlib';

const root = resolve(import.meta.dirname, '../..');
const out = join(root, 'test/fixtures/epp-corpus');
const mirrors = resolve(process.argv[2] ?? '/work/.mirror');
const git = (repo, ...args) =>
  execFileSync('git', ['-C', join(mirrors, repo.replace('/', '+'), 'repo'), ...args], {
    encoding: 'buffer',
    maxBuffer: 1 << 28,
  });

/** A value of a Puppet type, as JSON data, for a template's parameter (undefined: leave it to its default). */
export function synthesise(type, depth = 0) {
  const t = type.trim();
  const args = (s) => splitArgs(s.slice(s.indexOf('[') + 1, s.lastIndexOf(']')));
  const head = t.replace(/\[.*$/s, '');
  if (depth > 5) return 'x';
  switch (head) {
    case 'Optional':
    case 'NotUndef':
      return t.includes('[') ? synthesise(args(t)[0], depth + 1) : 'example';
    case 'Variant':
      return synthesise(args(t)[0], depth + 1);
    case 'Enum': {
      const first = args(t)[0] ?? "'x'";
      return first.replace(/^['"]|['"]$/g, '');
    }
    case 'String':
    case 'Pattern':
    case 'Scalar':
    case 'Any':
    case 'Data':
    case 'ScalarData':
      return 'example';
    case 'Integer': {
      const a = t.includes('[') ? args(t) : [];
      const min = a[0] !== undefined && /^-?\d+$/.test(a[0]) ? Number(a[0]) : 1;
      return Math.max(min, Math.min(3, a[1] !== undefined && /^-?\d+$/.test(a[1]) ? Number(a[1]) : 3));
    }
    case 'Float':
    case 'Numeric':
      return 1.5;
    case 'Boolean':
      return true;
    case 'Array':
    case 'Tuple':
      return t.includes('[') ? [synthesise(args(t)[0], depth + 1)] : ['example'];
    case 'Hash':
      return t.includes('[') ? { key: synthesise(args(t)[1] ?? 'String', depth + 1) } : { key: 'value' };
    case 'Struct': {
      const body = t.slice(t.indexOf('{') + 1, t.lastIndexOf('}'));
      const value = {};
      for (const entry of splitArgs(body)) {
        const m = /^\s*(?:Optional\[)?\s*['"]([^'"]+)['"]\]?\s*=>\s*(.+)$/s.exec(entry);
        if (m) value[m[1]] = synthesise(m[2], depth + 1);
      }
      return value;
    }
    case 'Stdlib::Port':
    case 'Stdlib::Port::Unprivileged':
      return 8080;
    case 'Stdlib::Absolutepath':
    case 'Stdlib::Unixpath':
      return '/tmp/example';
    case 'Stdlib::Host':
    case 'Stdlib::Fqdn':
      return 'example.com';
    case 'Stdlib::IP::Address':
    case 'Stdlib::IP::Address::V4':
    case 'Stdlib::IP::Address::Nosubnet':
    case 'Stdlib::IP::Address::V4::Nosubnet':
      return '192.0.2.1';
    case 'Stdlib::HTTPUrl':
    case 'Stdlib::HTTPSUrl':
      return 'https://example.com/';
    case 'Stdlib::Ensure::Service':
      return 'running';
    case 'Stdlib::Filemode':
      return '0644';
    default:
      return 'example';
  }
}

function splitArgs(text) {
  const parts = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const c of text) {
    if (quote) {
      current += c;
      if (c === quote) quote = '';
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    if ('[{('.includes(c)) depth++;
    if (']})'.includes(c)) depth--;
    if (c === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += c;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

function valuesFor(source) {
  let template;
  try {
    template = parseEpp(source, { file: 'template.epp' });
  } catch {
    return {};
  }
  const values = {};
  for (const p of template.params ?? []) {
    const typeText = p.valueType ? source.slice(p.valueType.start, p.valueType.end) : 'Any';
    values[p.name] = synthesise(typeText);
  }
  return values;
}

function runPuppet(dir, modulepath) {
  return new Promise((done) => {
    const child = spawn(
      'puppet',
      ['epp', 'render', '--modulepath', modulepath, 'template.epp', '--values_file', 'values.yaml'],
      { cwd: dir },
    );
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (d) => stdout.push(d));
    child.stderr.on('data', (d) => stderr.push(d));
    child.on('close', (code) =>
      done({ code, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8') }),
    );
  });
}

const modulepath = mkdtempSync(join(tmpdir(), 'epp-corpus-modules-'));
/** Puts a module's code (functions, types, lib, metadata) on the modulepath: what templates can call. */
const install = (repo, name) => {
  const target = join(modulepath, name);
  mkdirSync(target, { recursive: true });
  const present = git(repo, 'ls-tree', '--name-only', 'HEAD').toString('utf8').split('\n');
  const parts = ['lib', 'types', 'functions', 'metadata.json'].filter((p) => present.includes(p));
  const dir = join(mirrors, repo.replace('/', '+'), 'repo');
  execFileSync('sh', ['-c', `git -C ${dir} archive HEAD ${parts.join(' ')} | tar -x -C ${target}`]);
};
install(STDLIB, 'stdlib');
rmSync(out, { recursive: true, force: true });
const jobs = [];
for (const repo of MODULES) {
  const metadata = JSON.parse(git(repo, 'show', 'HEAD:metadata.json').toString('utf8'));
  if (!/^(Apache-2\.0|MIT)$/.test(metadata.license)) {
    console.log(`skip ${repo}: licence ${metadata.license}`);
    continue;
  }
  const name = metadata.name.split(/[-/]/).pop();
  install(repo, name);
  const moduleDir = join(out, repo.replace('/', '+'));
  mkdirSync(moduleDir, { recursive: true });
  const commit = git(repo, 'rev-parse', 'HEAD').toString('utf8').trim();
  for (const licence of ['LICENSE', 'NOTICE']) {
    try {
      writeFileSync(join(moduleDir, licence), git(repo, 'show', `HEAD:${licence}`));
    } catch {}
  }
  writeFileSync(
    join(moduleDir, 'NOTICE.md'),
    `Templates of https://github.com/${repo} at ${commit} (${metadata.license}), copied unchanged for the EPP\n` +
      `corpus test; expected outputs made by Puppet 7 with puppetlabs-stdlib ${JSON.parse(git(STDLIB, 'show', 'HEAD:metadata.json').toString('utf8')).version}.\n`,
  );
  const files = git(repo, 'ls-tree', '-r', '--name-only', 'HEAD')
    .toString('utf8')
    .split('\n')
    .filter((f) => /^templates\/.*\.epp$/.test(f));
  for (const file of files) {
    const source = git(repo, 'show', `HEAD:${file}`);
    const dir = join(moduleDir, file.replace(/^templates\//, '').replace(/\//g, '__'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'template.epp'), source);
    const values = valuesFor(source.toString('utf8'));
    writeFileSync(join(dir, 'values.json'), `${JSON.stringify(values, null, 2)}\n`);
    writeFileSync(join(dir, 'values.yaml'), `${JSON.stringify(values)}\n`);
    jobs.push(dir);
  }
}
let next = 0;
const worker = async () => {
  while (next < jobs.length) {
    const dir = jobs[next++];
    const r = await runPuppet(dir, modulepath);
    rmSync(join(dir, 'values.yaml'));
    if (r.code === 0) writeFileSync(join(dir, 'expected.txt'), r.stdout);
    else {
      const line =
        r.stderr
          .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '') // ANSI colours
          .split('\n')
          .find((l) => l.startsWith('Error:') && !l.includes('Facter')) ?? 'Error: (no message)';
      writeFileSync(join(dir, 'expected_error.txt'), `${line.replaceAll(`${dir}/`, '')}\n`);
    }
  }
};
await Promise.all([worker(), worker()]);
rmSync(modulepath, { recursive: true, force: true });
console.log(`corpus: ${jobs.length} templates from ${MODULES.length} modules in ${out}`);
