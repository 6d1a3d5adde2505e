/**
 * A fleet whose template source URL holds a token: the fleet commits, pushes and reports without it. The
 * repositories' history (commit messages, `.sync.yml`, the lock, rendered files), the JSON report CI keeps
 * as an artifact and everything printed name the source without credentials. git reaches a real local
 * template repository through the URL by `url.<repository>.insteadOf`, given in the environment.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFleet } from '../../src/fleet/index.js';
import { removeTempDirs, tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';
import { git, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

const TOKEN = 'ghp_FLEET0123456789';
const IDENTITY = 'https://git.example.com/tpl.git';
const WITH_TOKEN = `https://bot:${TOKEN}@git.example.com/tpl.git`;

/** A bare remote holding a project with a V2 `.sync.yml` and no source of its own. */
function projectRemote(root: string, name: string): string {
  const work = tempTree({ '.sync.yml': 'pdk_template:\n  version: 2\n' });
  git(work, 'init', '--quiet', '--initial-branch=main');
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'project');
  const bare = join(root, 'remotes', `${name}.git`);
  git(root, 'clone', '--quiet', '--bare', work, bare);
  return bare;
}

function fleetFile(root: string, location: string): void {
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'template_sources:',
      `  - { type: git, location: "${location}", ref: main }`,
      'repositories:',
      '  - { name: a, url: remotes/a.git }',
      '',
    ].join('\n'),
  );
}

describe('a token in a fleet template source', () => {
  it('is in no commit, pushed file, report or output, and is a warning where fleet.yml holds it', () => {
    const templates = tempRemote();
    const commit = templates.commit({
      't/template.json': JSON.stringify({ name: 't', version: '1.0.0', always_apply: true }),
      't/files/source.txt.epp': "from <%= $template['source'] %>\n",
    });
    const root = tempDir('fleet-credentials-');
    const bare = projectRemote(root, 'a');
    fleetFile(root, WITH_TOKEN);
    const env = {
      PANTOGRAPH_CACHE_DIR: tempDir('fleet-credentials-cache-'),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${templates.bare}.insteadOf`,
      GIT_CONFIG_VALUE_0: WITH_TOKEN,
    };

    const diff = pantograph(root, ['fleet', 'status', '--diff'], env);
    const apply = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--push'], env);
    expect(apply.status).toBe(0);
    const report = JSON.parse(apply.stdout);
    const label = `${IDENTITY}@main (${commit.slice(0, 12)})`;
    expect(report.repositories[0]).toMatchObject({
      result: 'applied',
      pushed: true,
      templates: [{ name: 't', version: '1.0.0', source: label }],
    });
    for (const output of [diff, apply]) expect(output.stdout + output.stderr).not.toContain(TOKEN);

    // The warning, once per run, at the location in fleet.yml, its code frame masked.
    expect(apply.stderr.match(/SOURCE_CREDENTIALS_IN_FILE/g)).toHaveLength(1);
    expect(apply.stderr).toContain(
      [
        'fleet.yml:3:28: warning: this URL holds a password or token: committed with fleet.yml, it is readable by anyone who can read the repository [SOURCE_CREDENTIALS_IN_FILE]',
        '  1 | version: 1',
        '  2 | template_sources:',
        '> 3 |   - { type: git, location: "https://bot:***@git.example.com/tpl.git", ref: main }',
        '    |                            ^',
      ].join('\n'),
    );

    expect(git(bare, 'log', '-1', '--format=%B', 'pantograph/update')).toContain(
      `Update from templates: ${label}\n`,
    );
    expect(git(bare, 'show', 'pantograph/update:.pantograph.lock')).toContain(`"location": "${IDENTITY}"`);
    expect(git(bare, 'show', 'pantograph/update:.sync.yml')).toContain(`location: ${IDENTITY}\n`);
    expect(git(bare, 'show', 'pantograph/update:source.txt')).toBe(`from ${IDENTITY}`);
    // Nowhere in the pushed history: messages, and every version of every file.
    expect(git(bare, 'log', '--all', '-p', '--format=%B')).not.toContain(TOKEN);
    expect(git(bare, 'log', '--all', '-p', '--format=%B')).not.toContain('bot:');

    // The .sync.yml the fleet committed agrees with the fleet: a second run has nothing to do.
    const again = pantograph(root, ['--format', 'json', 'fleet', 'apply', '--push', '--fresh'], env);
    expect(JSON.parse(again.stdout).repositories[0]).toMatchObject({ result: 'in-line', committed: false });
  });

  it("in a repository URL is not kept in the clone's .git/config, and the clone still fetches and pushes", () => {
    const root = tempDir('fleet-credentials-');
    const bare = projectRemote(root, 'a');
    const repoUrl = `https://bot:${TOKEN}@git.example.com/acme/a.git`;
    writeFileSync(join(root, 'fleet.yml'), `version: 1\nrepositories:\n  - { name: a, url: "${repoUrl}" }\n`);
    const env = {
      PANTOGRAPH_CACHE_DIR: tempDir('fleet-credentials-cache-'),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${bare}.insteadOf`,
      GIT_CONFIG_VALUE_0: repoUrl,
    };
    const config = join(root, '.pantograph-fleet', 'a', '.git', 'config');
    const first = pantograph(root, ['--format', 'json', 'fleet', 'status'], env);
    expect(JSON.parse(first.stdout).repositories[0].result, first.stdout).toBe('drift');
    expect(readFileSync(config, 'utf8')).not.toContain(TOKEN);
    expect(readFileSync(config, 'utf8')).toContain('url = https://git.example.com/acme/a.git');
    // A clone an older version left with the token in it is cleaned on the next run.
    git(join(root, '.pantograph-fleet', 'a'), 'config', 'remote.origin.url', repoUrl);
    git(bare, 'branch', 'other'); // something new to fetch
    const second = pantograph(root, ['fleet', 'apply', '--push', '--fresh'], env);
    expect(second.status, second.stderr).toBe(0);
    expect(readFileSync(config, 'utf8')).not.toContain(TOKEN);
    expect(git(join(root, '.pantograph-fleet', 'a'), 'rev-parse', 'refs/remotes/origin/other')).toMatch(
      /^[0-9a-f]{40}$/,
    );
  });

  it('of an unreachable remote is masked in the failure the report records', () => {
    const root = tempDir('fleet-credentials-');
    projectRemote(root, 'a');
    fleetFile(root, `https://bot:${TOKEN}@127.0.0.1:1/tpl.git`);
    const r = pantograph(root, ['--format', 'json', 'fleet', 'status'], {
      PANTOGRAPH_CACHE_DIR: tempDir('fleet-credentials-cache-'),
    });
    expect(r.status).toBe(1);
    const [record] = JSON.parse(r.stdout).repositories;
    expect(record.result).toBe('failed');
    expect(record.error.message).toContain(
      "git source 'https://bot:***@127.0.0.1:1/tpl.git' cannot be fetched",
    );
    expect(r.stdout + r.stderr).not.toContain(TOKEN);
  });

  it('and in a repository URL or the forge API are warnings at their positions in fleet.yml', () => {
    const fleet = parseFleet(
      [
        'version: 1',
        'template_sources:',
        '  - type: git',
        `    location: ${WITH_TOKEN}`,
        'repositories:',
        '  - { name: a, url: "https://x-access-token:ghs_abc123@github.com/acme/a.git" }',
        '  - { name: b, url: "git@github.com:acme/b.git" }',
        '  - { name: c, url: "https://github.com/acme/c.git" }',
        'forge:',
        '  type: github',
        '  api: https://bot:ghp_apiTOKEN123@api.github.example.com',
        '',
      ].join('\n'),
      '/fleets/fleet.yml',
    );
    expect(fleet.problems.map(({ code, file, line, column }) => ({ code, file, line, column }))).toEqual([
      { code: 'SOURCE_CREDENTIALS_IN_FILE', file: '/fleets/fleet.yml', line: 4, column: 15 },
      { code: 'SOURCE_CREDENTIALS_IN_FILE', file: '/fleets/fleet.yml', line: 6, column: 21 },
      // The forge's API URL too (its token belongs in the variable token_env names).
      { code: 'SOURCE_CREDENTIALS_IN_FILE', file: '/fleets/fleet.yml', line: 11, column: 8 },
    ]);
  });
});
