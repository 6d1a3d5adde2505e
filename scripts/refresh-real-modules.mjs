#!/usr/bin/env node
/**
 * Refreshes test/fixtures/real-modules: real, public PDK modules' `.sync.yml`, `metadata.json` and the files
 * pdk-templates manages, unchanged, with where they come from in corpus.json.
 *
 *   node scripts/refresh-real-modules.mjs [--mirror DIR] [--only NAME,...]
 *
 * Each module of corpus.json is read from a git repository: `<mirror>/<owner>+<name>/repo` when a mirror
 * directory is given (a bare clone, as the workplace's `fetch` makes them), else a shallow clone of
 * `https://github.com/<owner>/<name>` into a temporary directory. The newest commit of the default branch is
 * taken; corpus.json records it. pdk-templates' managed paths come from its `moduleroot/` at the tag the
 * default templates follow (and at the mirror's newest commit, when there is one), so that a file
 * pdk-templates added later is collected too.
 *
 * A module is refused (and the script exits 1) when its metadata.json has no `pdk-version` or it has no
 * `.sync.yml` (the corpus is of modules PDK manages), or when its licence is not an open-source one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const fixtures = join(root, 'test/fixtures/real-modules');
const corpusFile = join(fixtures, 'corpus.json');
const FOLLOWED_TAG = '3.5.1';
/** Licences whose files may be kept in our repository as test data (with the licence noted). */
const OPEN_LICENCES = new Set(['Apache-2.0', 'MIT', 'GPL-2.0+', 'GPL-2.0-only', 'GPL-3.0', 'BSD-3-Clause']);

const args = process.argv.slice(2);
const option = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const mirror = option('--mirror');
const only = option('--only')?.split(',');

const git = (gitDir, ...rest) =>
  execFileSync('git', [`--git-dir=${gitDir}`, ...rest], {
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** A bare repository for `owner/name`: the mirror's, or a fresh shallow clone. */
function repository(repo, temp) {
  if (mirror) {
    const dir = join(mirror, `${repo.replace('/', '+')}`, 'repo');
    if (!existsSync(dir)) throw new Error(`${repo}: no mirror at ${dir}`);
    return dir;
  }
  const dir = join(temp, repo.replace('/', '+'));
  execFileSync(
    'git',
    ['clone', '--bare', '--depth=1', '--filter=blob:none', `https://github.com/${repo}`, dir],
    {
      stdio: 'inherit',
    },
  );
  return dir;
}

const blob = (gitDir, commit, path) => {
  try {
    return git(gitDir, 'show', `${commit}:${path}`);
  } catch {
    return undefined;
  }
};

function managedPaths(templatesDir) {
  const paths = new Set();
  for (const ref of [FOLLOWED_TAG, 'HEAD']) {
    const names = git(templatesDir, 'ls-tree', '-r', '--name-only', ref, 'moduleroot/')
      .toString()
      .split('\n');
    for (const name of names.filter(Boolean))
      paths.add(name.replace(/^moduleroot\//, '').replace(/\.erb$/, ''));
  }
  return [...paths].sort();
}

const corpus = JSON.parse(readFileSync(corpusFile, 'utf8'));
const temp = mkdtempSync(join(tmpdir(), 'real-modules-'));
let failed = false;
try {
  const paths = managedPaths(repository('puppetlabs/pdk-templates', temp));
  for (const entry of corpus.modules) {
    if (only && !only.includes(entry.name)) continue;
    const gitDir = repository(entry.repo, temp);
    const commit = git(gitDir, 'rev-parse', 'HEAD').toString().trim();
    const metadataText = blob(gitDir, commit, 'metadata.json');
    const syncText = blob(gitDir, commit, '.sync.yml');
    const metadata = metadataText && JSON.parse(metadataText.toString());
    if (!metadata?.['pdk-version'] || !syncText) {
      console.error(
        `${entry.name}: not a PDK module at ${commit} (no pdk-version or no .sync.yml); left as it was`,
      );
      failed = true;
      continue;
    }
    if (!OPEN_LICENCES.has(metadata.license)) {
      console.error(
        `${entry.name}: licence ${metadata.license} is not an open-source licence we may copy; left out`,
      );
      failed = true;
      continue;
    }
    const into = join(fixtures, entry.name);
    rmSync(into, { recursive: true, force: true });
    const files = [];
    for (const path of ['.sync.yml', 'metadata.json', ...paths]) {
      const content = blob(gitDir, commit, path);
      if (!content) continue;
      mkdirSync(dirname(join(into, path)), { recursive: true });
      writeFileSync(join(into, path), content);
      files.push(path);
    }
    Object.assign(entry, {
      commit,
      date: git(gitDir, 'log', '-1', '--format=%cs', commit).toString().trim(),
      licence: metadata.license,
      pdkVersion: metadata['pdk-version'],
      templateUrl: metadata['template-url'],
      templateRef: metadata['template-ref'],
      files,
    });
    console.log(
      `${entry.name}: ${commit.slice(0, 12)} (${files.length} files, template-ref ${entry.templateRef})`,
    );
  }
  writeFileSync(corpusFile, `${JSON.stringify(corpus, null, 2)}\n`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
