#!/usr/bin/env node
/**
 * Rebuilds the corpus of real EPP templates (test/fixtures/epp-corpus, issue 12 item 4): every
 * `templates/**\/*.epp` of the public modules below, with values synthesised from each template's declared
 * parameter types, and what real Puppet 7 renders for them (expected.txt, or expected_error.txt when
 * Puppet fails), with puppetlabs-stdlib and the module itself on the modulepath and the facts of
 * scripts/epp-corpus/facts.yaml.
 *
 *   node scripts/epp-corpus/build.mjs MIRRORS_DIR [OWNER/NAME ...]
 *
 * needs `puppet`; MIRRORS_DIR holds owner+name/repo git dirs, as the tool library's fetch leaves them. With
 * module names, only those modules' folders are made again (a module added to MODULES, or one moved to a
 * newer commit); without, the whole corpus.
 *
 * Each module keeps its licence beside its templates (LICENSE, and NOTICE.md naming the source and commit),
 * and its type aliases and Puppet functions (`modules/<name>/types/`, `functions/`), which the corpus test
 * gives Pantograph as its module path.
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
  // Added in session 15.
  'voxpupuli/puppet-collectd',
  'puppetlabs/puppetlabs-docker',
  'puppetlabs/puppetlabs-haproxy',
  'voxpupuli/puppet-rsyslog',
  'voxpupuli/puppet-squid',
  'voxpupuli/puppet-nftables',
  'voxpupuli/puppet-zabbix',
  'puppetlabs/puppetlabs-ntp',
  'voxpupuli/puppet-grafana',
  'puppetlabs/puppetlabs-puppet_agent',
  'voxpupuli/puppet-openvpn',
  'voxpupuli/puppet-elasticsearch',
  'voxpupuli/puppet-consul',
  'puppetlabs/puppetlabs-tomcat',
  // Added in session 16.
  'puppetlabs/puppetlabs-apt',
  'puppetlabs/puppetlabs-motd',
  'voxpupuli/puppet-rabbitmq',
  'voxpupuli/puppet-unbound',
  'voxpupuli/puppet-letsencrypt',
  'voxpupuli/puppet-mongodb',
  'voxpupuli/puppet-k8s',
  'voxpupuli/puppet-kafka',
  // Added in session 18.
  'voxpupuli/puppet-bacula',
  'voxpupuli/puppet-jira',
  'voxpupuli/puppet-rundeck',
  'voxpupuli/puppet-fail2ban',
  'voxpupuli/puppet-puppetboard',
  'voxpupuli/puppet-autofs',
  'voxpupuli/puppet-caddy',
  'voxpupuli/puppet-jenkins',
  'voxpupuli/puppet-opensearch',
  'voxpupuli/puppet-snmp',
  'voxpupuli/puppet-openssl',
  'voxpupuli/puppet-proxysql',
  'voxpupuli/puppet-splunk',
  'voxpupuli/puppet-sssd',
  'puppetlabs/puppetlabs-peadm',
  'puppetlabs/puppetlabs-puppetdb',
  'puppetlabs/puppetlabs-kubernetes',
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

/**
 * Values for a template's parameters, as JSON data, in two variants that take different paths through it:
 * the first gives every parameter a value (the first member of an Enum or Variant, the lower bound of an
 * Integer range, `true`, one element per collection); the second leaves every parameter that has a default
 * to it and gives the others the last member of an Enum or Variant, `false`, two elements per collection.
 */
export const VARIANTS = [
  { suffix: '', givesDefaulted: true, pick: (list) => list[0] },
  { suffix: '-2', givesDefaulted: false, pick: (list) => list[list.length - 1] },
];

/** Example values of the common stdlib aliases, per variant. */
const STDLIB_EXAMPLES = {
  'Stdlib::Port': [8080, 443],
  'Stdlib::Port::Unprivileged': [8080, 8443],
  'Stdlib::Absolutepath': ['/tmp/example', '/opt/other'],
  'Stdlib::Unixpath': ['/tmp/example', '/opt/other'],
  'Stdlib::Host': ['example.com', 'other.example.org'],
  'Stdlib::Fqdn': ['example.com', 'other.example.org'],
  'Stdlib::IP::Address': ['192.0.2.1', '198.51.100.7'],
  'Stdlib::IP::Address::V4': ['192.0.2.1', '198.51.100.7'],
  'Stdlib::IP::Address::Nosubnet': ['192.0.2.1', '198.51.100.7'],
  'Stdlib::IP::Address::V4::Nosubnet': ['192.0.2.1', '198.51.100.7'],
  'Stdlib::HTTPUrl': ['https://example.com/', 'http://other.example.org/path'],
  'Stdlib::HTTPSUrl': ['https://example.com/', 'https://other.example.org/path'],
  'Stdlib::Ensure::Service': ['running', 'stopped'],
  'Stdlib::Filemode': ['0644', '0755'],
};

/** A value of a Puppet type, as JSON data, in variant `v` (0 or 1) of {@link VARIANTS}. */
export function synthesise(type, depth = 0, v = 0) {
  const t = type.trim();
  const args = (s) => splitArgs(s.slice(s.indexOf('[') + 1, s.lastIndexOf(']')));
  const head = t.replace(/\[.*$/s, '');
  const word = ['example', 'other'][v];
  const again = (inner) => synthesise(inner, depth + 1, v);
  if (depth > 5) return 'x';
  if (STDLIB_EXAMPLES[head]) return STDLIB_EXAMPLES[head][v];
  switch (head) {
    case 'Optional':
    case 'NotUndef':
      return t.includes('[') ? again(args(t)[0]) : word;
    case 'Variant':
      return again(VARIANTS[v].pick(args(t)));
    case 'Enum': {
      const member = VARIANTS[v].pick(args(t)) ?? "'x'";
      return member.replace(/^['"]|['"]$/g, '');
    }
    case 'String':
    case 'Pattern':
    case 'Scalar':
    case 'Any':
    case 'Data':
    case 'ScalarData':
      return word;
    case 'Integer': {
      const a = t.includes('[') ? args(t) : [];
      const min = a[0] !== undefined && /^-?\d+$/.test(a[0]) ? Number(a[0]) : 1;
      const max = a[1] !== undefined && /^-?\d+$/.test(a[1]) ? Number(a[1]) : undefined;
      return Math.max(min, Math.min(v === 0 ? 3 : 10, max ?? Number.POSITIVE_INFINITY));
    }
    case 'Float':
    case 'Numeric':
      return [1.5, 0.25][v];
    case 'Boolean':
      return v === 0;
    case 'Array':
    case 'Tuple': {
      const element = () => (t.includes('[') ? again(args(t)[0]) : word);
      return v === 0 ? [element()] : [element(), element()];
    }
    case 'Hash': {
      const value = () => (t.includes('[') ? again(args(t)[1] ?? 'String') : 'value');
      return v === 0 ? { key: value() } : { key: value(), second: value() };
    }
    case 'Struct': {
      const body = t.slice(t.indexOf('{') + 1, t.lastIndexOf('}'));
      const value = {};
      for (const entry of splitArgs(body)) {
        const m = /^\s*(?:Optional\[)?\s*['"]([^'"]+)['"]\]?\s*=>\s*(.+)$/s.exec(entry);
        if (m) value[m[1]] = again(m[2]);
      }
      return value;
    }
    default:
      return word;
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

/** The values of variant `v` for a template's declared parameters ({} when it declares none). */
function valuesFor(source, v) {
  let template;
  try {
    template = parseEpp(source, { file: 'template.epp' });
  } catch {
    return {};
  }
  const values = {};
  for (const p of template.params ?? []) {
    if (p.defaultValue && !VARIANTS[v].givesDefaulted) continue;
    const typeText = p.valueType ? source.slice(p.valueType.start, p.valueType.end) : 'Any';
    values[p.name] = synthesise(typeText, 0, v);
  }
  return values;
}

function runPuppet(dir, modulepath, valuesFile) {
  return new Promise((done) => {
    const child = spawn(
      'puppet',
      [
        'epp',
        'render',
        '--modulepath',
        modulepath,
        '--facts',
        join(import.meta.dirname, 'facts.yaml'),
        'template.epp',
        '--values_file',
        valuesFile,
      ],
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
const only = process.argv.slice(3);
for (const repo of only) if (!MODULES.includes(repo)) throw new Error(`${repo} is not in MODULES`);
if (only.length === 0) rmSync(out, { recursive: true, force: true });
const jobs = [];
for (const repo of only.length > 0 ? only : MODULES) {
  const metadata = JSON.parse(git(repo, 'show', 'HEAD:metadata.json').toString('utf8'));
  if (!/^(Apache-2\.0|MIT)$/.test(metadata.license)) {
    console.log(`skip ${repo}: licence ${metadata.license}`);
    continue;
  }
  const name = metadata.name.split(/[-/]/).pop();
  install(repo, name);
  const moduleDir = join(out, repo.replace('/', '+'));
  rmSync(moduleDir, { recursive: true, force: true });
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
  // The module's type aliases and Puppet functions, for Pantograph's module path (corpus.mjs): Puppet
  // had the whole module.
  const top = git(repo, 'ls-tree', '--name-only', 'HEAD').toString('utf8').split('\n');
  const code = ['types', 'functions'].filter((part) => top.includes(part));
  if (code.length > 0) {
    const target = join(moduleDir, 'modules', name);
    mkdirSync(target, { recursive: true });
    const dir = join(mirrors, repo.replace('/', '+'), 'repo');
    execFileSync('sh', ['-c', `git -C ${dir} archive HEAD ${code.join(' ')} | tar -x -C ${target}`]);
  }
  const files = git(repo, 'ls-tree', '-r', '--name-only', 'HEAD')
    .toString('utf8')
    .split('\n')
    .filter((f) => /^templates\/.*\.epp$/.test(f));
  for (const file of files) {
    const source = git(repo, 'show', `HEAD:${file}`);
    const dir = join(moduleDir, file.replace(/^templates\//, '').replace(/\//g, '__'));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'template.epp'), source);
    // The second variant only where it differs from the first (a template with parameters).
    let previous;
    VARIANTS.forEach(({ suffix }, v) => {
      const values = valuesFor(source.toString('utf8'), v);
      const text = JSON.stringify(values);
      if (text === previous) return;
      previous = text;
      writeFileSync(join(dir, `values${suffix}.json`), `${JSON.stringify(values, null, 2)}\n`);
      writeFileSync(join(dir, `values${suffix}.yaml`), `${text}\n`);
      jobs.push({ dir, suffix });
    });
  }
}
let next = 0;
const worker = async () => {
  while (next < jobs.length) {
    const { dir, suffix } = jobs[next++];
    const r = await runPuppet(dir, modulepath, `values${suffix}.yaml`);
    rmSync(join(dir, `values${suffix}.yaml`));
    if (r.code === 0) writeFileSync(join(dir, `expected${suffix}.txt`), r.stdout);
    else {
      const line =
        r.stderr
          .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '') // ANSI colours
          .split('\n')
          .find((l) => l.startsWith('Error:') && !l.includes('Facter')) ?? 'Error: (no message)';
      writeFileSync(join(dir, `expected_error${suffix}.txt`), `${line.replaceAll(`${dir}/`, '')}\n`);
    }
  }
};
await Promise.all([worker(), worker()]);
rmSync(modulepath, { recursive: true, force: true });
console.log(
  `corpus: ${jobs.length} renders of templates from ${(only.length > 0 ? only : MODULES).length} modules in ${out}`,
);
