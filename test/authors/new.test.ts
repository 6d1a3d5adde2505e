import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { shippedSchema } from '../../src/engine/json-schema.js';
import type { Data } from '../../src/engine/model.js';
import { createTemplate } from '../../src/engine/scaffold.js';
import { loadRepository } from '../../src/engine/template-repository.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { demoTree } from './fixtures.js';

afterEach(removeTempDirs);

describe('pantograph new template', () => {
  it('creates a skeleton whose template loads, whose README is current and whose first test passes', async () => {
    const repo = tempDir();
    const r = await run(repo, 'new', 'template', 'greeter');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "created template 'greeter' in greeter:",
        '  greeter/README.md',
        '  greeter/files/example.epp',
        '  greeter/partials/signature.epp',
        '  greeter/template.json',
        '  greeter/template_schema.json',
        '  greeter/tests/basic/.sync.yml',
        '  greeter/tests/basic/expected/example',
        'next:',
        '  edit greeter/template.json (description, settings) and greeter/files/',
        '  pantograph test greeter --update   accept the new output as expected',
        '  pantograph docs                    regenerate the README',
        '',
      ].join('\n'),
    );
    const manifest = JSON.parse(readFileSync(join(repo, 'greeter/template.json'), 'utf8')) as Data;
    expect(shippedSchema('template').validate(manifest)).toEqual([]);
    expect(loadRepository(repo).problems).toEqual([]);
    expect(readFileSync(join(repo, 'greeter/tests/basic/expected/example'), 'utf8')).toBe(
      'Hello, basic!\n-- managed by the greeter template; edit .sync.yml, not this file\n',
    );
    expect(readFileSync(join(repo, 'greeter/files/example.epp'), 'utf8')).toContain(
      'String[1]     $greeting',
    );
    expect(existsSync(join(repo, 'greeter/hooks'))).toBe(false);
    expect(await run(repo, 'test')).toEqual({
      code: 0,
      stdout: 'PASS greeter/basic\n1 passed, 0 failed\n',
      stderr: '',
    });
    expect(await run(repo, 'docs', '--check')).toEqual({
      code: 0,
      stdout: '1 README up to date\n',
      stderr: '',
    });
  });

  it("leaves the repository's always-applied templates out of the first test", async () => {
    const repo = tempTree(demoTree());
    const result = await createTemplate(repo, 'greeter');
    expect(result.dir).toBe(join(repo, 'greeter'));
    expect(readFileSync(join(repo, 'greeter/tests/basic/.sync.yml'), 'utf8')).toBe(
      [
        '# The greeter template with its default settings. `pantograph test greeter` plans this project with the',
        '# template repository as its only source and compares the output with expected/.',
        'pdk_template:',
        '  version: 2',
        '  templates:',
        '    - greeter',
        '    # the always-applied templates of this repository are left out of this test',
        '    - "---base"',
        '',
      ].join('\n'),
    );
    const r = await run(repo, 'test', '--dir', repo, 'greeter');
    expect(r.stdout).toBe('PASS greeter/basic\n1 passed, 0 failed\n');
  });

  it('with -C, the printed next steps name the repository and work as printed from the same directory', async () => {
    const cwd = tempDir();
    const r = await run(cwd, 'new', 'template', 'my_template', '-C', 'my-templates');
    expect(r.code).toBe(0);
    const next = r.stdout.slice(r.stdout.indexOf('next:'));
    expect(next).toBe(
      [
        'next:',
        '  edit my-templates/my_template/template.json (description, settings) and my-templates/my_template/files/',
        '  pantograph test my_template --update -C my-templates   accept the new output as expected',
        '  pantograph docs -C my-templates                        regenerate the README',
        '',
      ].join('\n'),
    );
    // Each printed command, run as printed (words split as a shell splits these) from where `new` ran.
    for (const line of next.split('\n').filter((l) => l.startsWith('  pantograph '))) {
      const words = line.trim().split(/ {3,}/)[0]!.split(' ').slice(1);
      const step = await run(cwd, ...words);
      expect(step.stderr).toBe('');
      expect(step.code).toBe(0);
    }
  });

  it('quotes a repository directory that is not one shell word', async () => {
    const cwd = tempDir();
    const r = await run(cwd, 'new', 'template', 'greeter', '-C', 'my templates');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("  pantograph docs -C 'my templates'   ");
  });

  it('refuses a name that is not snake_case, creating nothing', async () => {
    const repo = tempDir();
    const r = await run(repo, 'new', 'template', 'My-Template');
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: 'My-Template' is not a valid template name [AUTHOR_NAME]\n  hint: use snake_case: lower-case letters, digits and underscores, starting with a letter (e.g. 'my_template')\n",
    });
    expect(snapshotDir(repo)).toEqual({});
  });

  it('refuses a project (a module) as the repository, writing nothing, and says where templates go', async () => {
    for (const marker of ['.sync.yml', 'metadata.json']) {
      const base = tempTree({
        [`ntp/${marker}`]: marker === '.sync.yml' ? 'pdk_template:\n  version: 2\n' : '{}\n',
      });
      const module = join(base, 'ntp');
      const before = snapshotDir(module);
      const r = await run(module, 'new', 'template', 'greeter');
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `error: ${module} is a project (it has ${marker}), not a template repository [AUTHOR_NO_REPOSITORY]\n` +
          '  hint: create the template in a template repository: -C DIR (made when missing), e.g. `pantograph new template NAME -C ../my-templates`; in a module, `pantograph new class NAME` (and the other kinds) makes Puppet code\n',
      });
      expect(snapshotDir(module)).toEqual(before);
      // as the hint says: a repository beside it
      expect((await run(module, 'new', 'template', 'greeter', '-C', '../my-templates')).code).toBe(0);
      expect(existsSync(join(base, 'my-templates/greeter/template.json'))).toBe(true);
    }
  });

  it('takes a project that keeps its own templates beside its files (`location: .`) as their repository', async () => {
    const project = tempTree({
      '.sync.yml': 'pdk_template:\n  version: 2\n',
      'site/template.json': JSON.stringify({ name: 'site' }),
    });
    expect((await run(project, 'new', 'template', 'greeter')).code).toBe(0);
    expect(existsSync(join(project, 'greeter/template.json'))).toBe(true);
  });

  it('refuses an existing directory, leaving it as it was', async () => {
    const repo = tempTree({ 'greeter/notes.txt': 'mine\n' });
    const before = snapshotDir(repo);
    const r = await run(repo, 'new', 'template', 'greeter', '--dir', '.');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(repo, 'greeter')} already exists [AUTHOR_EXISTS]`);
    expect(snapshotDir(repo)).toEqual(before);
  });

  it("refuses to nest a template in another's directory, naming the repository to use", async () => {
    const repo = tempDir();
    expect((await run(repo, 'new', 'template', 'ci')).code).toBe(0);
    const before = snapshotDir(repo);
    for (const args of [
      ['-C', 'ci'],
      ['--dir', join(repo, 'ci')],
    ]) {
      const r = await run(repo, 'new', 'template', 'lint', ...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `${join(repo, 'ci')} is the template 'ci' (it has a template.json), not a template repository [AUTHOR_NO_REPOSITORY]`,
      );
      expect(r.stderr).toContain(`hint: create the new template beside it, in its repository: -C ${repo}`);
    }
    expect(snapshotDir(repo)).toEqual(before);
  });
});
