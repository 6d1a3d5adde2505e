/**
 * pdk-templates itself (test/fixtures/pdk-templates-3.5.1, the tag the default templates follow) run as a
 * V1 repository with the real Ruby: over a new module, and over the corpus of real modules
 * (test/fixtures/real-modules) last rendered by that tag, compared byte for byte with their own files.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plan } from '../../../src/engine/plan.js';
import { loadProject } from '../../../src/engine/project.js';
import type { RenderPlan } from '../../../src/engine/render-plan.js';
import { pdkSeesNoChange } from '../../../src/engine/v1/pdk-unchanged.js';
import { run } from '../../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree } from '../../helpers/fs.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures');
const PDK_TEMPLATES = join(FIXTURES, 'pdk-templates-3.5.1');
/** The commit of pdk-templates' tag 3.5.1. */
const TAG_COMMIT = '9d5b19352e2305ece09154dd90e57ffc24a3ab49';

beforeEach(() => vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-')));
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

function text(p: RenderPlan, path: string): string | undefined {
  const f = p.files.find((x) => x.path === path);
  return f && Buffer.from(f.content).toString('utf8');
}

describe('pdk-templates 3.5.1 as a V1 repository', () => {
  it('renders a new module: moduleroot managed, moduleroot_init once, the CI workflows unmanaged by default', async () => {
    const root = tempTree({
      'metadata.json': JSON.stringify({
        name: 'acme-widget',
        version: '0.1.0',
        author: 'acme',
        license: 'Apache-2.0',
      }),
      '.sync.yml': `---
Gemfile:
  optional:
    ':development':
      - gem: pry
spec/spec_helper.rb:
  mock_with: ':rspec'
.rubocop.yml:
  selected_profile: cleanups_only
`,
    });
    const p = await plan(await loadProject(root, { templateUrl: PDK_TEMPLATES }));
    expect(p.problems).toEqual([]);
    expect(p.files.filter((f) => f.kind === 'file').map((f) => f.path)).toEqual([
      '.gitattributes',
      '.gitignore',
      '.pdkignore',
      '.puppet-lint.rc',
      '.rspec',
      '.rubocop.yml',
      '.vscode/extensions.json',
      '.yardopts',
      'Gemfile',
      'Rakefile',
      'spec/default_facts.yml',
      'spec/spec_helper.rb',
    ]);
    // moduleroot_init's .sync.yml is never written: the project's is Pantograph's input.
    expect(p.files.filter((f) => f.kind === 'init').map((f) => f.path)).toEqual([
      '.fixtures.yml',
      'CHANGELOG.md',
      'README.md',
      'data/common.yaml',
      'hiera.yaml',
    ]);
    expect(p.unmanaged).toEqual([
      '.github/workflows/ci.yml',
      '.github/workflows/nightly.yml',
      '.github/workflows/release.yml',
      '.github/workflows/release_prep.yml',
    ]);
    expect(text(p, '.rspec')).toBe('--color\n--format documentation\n');
    expect(text(p, 'Gemfile')).toMatch(/^ {2}gem "pry", +require: false$/m);
    expect(text(p, 'spec/spec_helper.rb')).toContain('c.mock_with :rspec');
    expect(text(p, 'README.md')).toMatch(/^# widget\n/);
    expect(text(p, '.rubocop.yml')).toMatch(/^AllCops:\n/m);

    // Applied, and then in line: the same run twice renders the same bytes.
    expect((await run(root, 'apply', '--template-url', PDK_TEMPLATES)).code).toBe(0);
    const again = await run(root, 'status', '--check', '--template-url', PDK_TEMPLATES);
    expect(again.stdout).toMatch(/no drift/);
    expect(again.code).toBe(0);
  });
});

interface CorpusModule {
  readonly name: string;
  readonly repo: string;
  readonly commit: string;
  readonly templateRef: string;
  readonly files: readonly string[];
}

/**
 * Files of the corpus that differ from pdk-templates 3.5.1's output, each a hand edit made after `pdk
 * update`, shown by the module's own commit and proven by `undo`: the module's bytes with that edit taken
 * back are exactly what the V1 runner renders.
 */
interface HandEdit {
  readonly commit: string;
  readonly why: string;
  readonly undo: (content: string) => string;
}

/** `with: flags: "--nightly..."` added to the acceptance job; pdk-templates 3.5.1's workflows have no flags. */
const nightlyFlags = (commit: string, why: string): HandEdit => ({
  commit,
  why,
  undo: (c) => c.replace(/^ {4}with:\n {6}flags: (?:"[^"\n]*"|'[^'\n]*')\n/gm, ''),
});
const hashSyntax = (commit: string): HandEdit => ({
  commit,
  why: 'Style/HashSyntax disabled by hand in .rubocop.yml (not through .sync.yml)',
  undo: (c) => c.replace(/^Style\/HashSyntax:\n {2}Enabled: false\n/m, ''),
});

const HAND_EDITS: Readonly<Record<string, Readonly<Record<string, HandEdit>>>> = {
  'puppetlabs-concat': {
    '.github/workflows/ci.yml': nightlyFlags('694e674', '"test against nightlies"'),
    '.github/workflows/nightly.yml': nightlyFlags('38b6a0d', '"use nightly flag"'),
    '.rubocop.yml': hashSyntax('03244eb'),
  },
  'puppetlabs-inifile': {
    '.github/workflows/ci.yml': nightlyFlags('a86fe9f', '"test against nightly"'),
    '.github/workflows/nightly.yml': nightlyFlags('a86fe9f', '"test against nightly"'),
    '.rubocop.yml': hashSyntax('b9aace6'),
  },
  'puppetlabs-java': {
    '.github/workflows/ci.yml': nightlyFlags(
      'bf9d853',
      '"Test against nightlies" (6b4d182), then "--arch-exclude arm"',
    ),
    '.github/workflows/nightly.yml': nightlyFlags(
      'bf9d853',
      '"Test against nightlies" (6b4d182), then "--arch-exclude arm"',
    ),
  },
  'puppetlabs-reboot': {
    '.github/workflows/ci.yml': nightlyFlags(
      'f10c0be',
      '"Consume new nightlies", kept by hand through the PDK update ab1f019',
    ),
    '.github/workflows/nightly.yml': nightlyFlags(
      'f10c0be',
      '"Consume new nightlies", kept by hand through the PDK update ab1f019',
    ),
  },
  'puppetlabs-vcsrepo': {
    '.github/workflows/ci.yml': nightlyFlags('77d8d24', '"Test against nightlies"'),
    '.github/workflows/nightly.yml': nightlyFlags('77d8d24', '"Test against nightlies"'),
  },
};

/**
 * Files whose bytes differ from the template's output only where `pdk update` sees no change (its diff
 * drops CRs and blank lines at the end), so PDK never rewrote them: the V1 runner plans them as they are.
 * Each names how it came to differ, by its commit.
 */
const PDK_LEAVES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'puppetlabs-ntp': {
    Rakefile:
      '2bebd01 "Remove unsupported integration testing": the `extras` block cut by hand with the blank line the template prints before it',
  },
  'puppetlabs-reboot': {
    '.gitattributes':
      '400e99d: committed with CRLF line endings in 2019; PDK writes LF, but only when a line changes',
  },
};

function corpusAtTag(): CorpusModule[] {
  const corpus = JSON.parse(readFileSync(join(FIXTURES, 'real-modules/corpus.json'), 'utf8')) as {
    modules: CorpusModule[];
  };
  // `tags/3.5.1-0-g9d5b193` or `heads/main-0-g9d5b193`: rendered at the tag's commit.
  return corpus.modules.filter((m) => {
    const sha = /-g([0-9a-f]{7,40})$/.exec(m.templateRef)?.[1];
    return sha !== undefined && TAG_COMMIT.startsWith(sha);
  });
}

describe('the corpus: pdk-templates 3.5.1 renders what the modules rendered by it hold', () => {
  const modules = corpusAtTag();

  it('finds the six modules of the tag', () => {
    expect(modules.map((m) => m.name)).toEqual([
      'puppetlabs-concat',
      'puppetlabs-inifile',
      'puppetlabs-java',
      'puppetlabs-ntp',
      'puppetlabs-reboot',
      'puppetlabs-vcsrepo',
    ]);
  });

  it('byte for byte, but for hand edits each shown by its commit', async () => {
    const summary = { identical: 0, leftAsPdkLeavesIt: 0, handEdited: 0, unmanaged: 0 };
    const report: string[] = [];
    for (const m of modules) {
      const root = tempDir('pantograph-corpus-');
      cpSync(join(FIXTURES, 'real-modules', m.name), root, { recursive: true });
      const p = await plan(await loadProject(root, { templateUrl: PDK_TEMPLATES }));
      expect(p.problems, m.name).toEqual([]);
      const edits = HAND_EDITS[m.name] ?? {};
      for (const path of m.files) {
        if (path === '.sync.yml' || path === 'metadata.json') continue;
        const mine = readFileSync(join(root, path), 'utf8');
        if (p.unmanaged.includes(path)) {
          summary.unmanaged++;
          report.push(`${m.name} ${path}: unmanaged`);
          continue;
        }
        const rendered = text(p, path);
        expect(rendered, `${m.name} ${path} is rendered`).toBeDefined();
        const leftAlone = PDK_LEAVES[m.name]?.[path];
        if (leftAlone !== undefined) {
          expect(rendered, `${m.name} ${path}: kept as pdk update keeps it`).toBe(mine);
          // Without the module's file, the template's own output: different bytes, the same lines to PDK.
          const fresh = tempDir('pantograph-corpus-');
          cpSync(join(FIXTURES, 'real-modules', m.name), fresh, { recursive: true });
          rmSync(join(fresh, path));
          const raw = text(await plan(await loadProject(fresh, { templateUrl: PDK_TEMPLATES })), path)!;
          expect(raw, `${m.name} ${path}: the template's output`).not.toBe(mine);
          expect(pdkSeesNoChange(Buffer.from(mine), Buffer.from(raw)), `${m.name} ${path}`).toBe(true);
          summary.leftAsPdkLeavesIt++;
          report.push(`${m.name} ${path}: no change to pdk update (${leftAlone})`);
          continue;
        }
        if (rendered === mine) {
          summary.identical++;
          continue;
        }
        const edit = edits[path];
        expect(
          edit,
          `${m.name} ${path} differs from pdk-templates 3.5.1 without a known hand edit`,
        ).toBeDefined();
        expect(edit!.undo(mine), `${m.name} ${path}: the hand edit undone`).toBe(rendered);
        summary.handEdited++;
        report.push(`${m.name} ${path}: hand edit ${edit!.commit} (${edit!.why})`);
      }
      // Every hand edit listed is still there (the corpus was not refreshed under the list).
      for (const path of Object.keys(edits))
        expect(text(p, path), `${m.name} ${path}`).not.toBe(readFileSync(join(root, path), 'utf8'));
    }
    console.log(
      `pdk-templates 3.5.1 (V1 runner) over ${modules.length} corpus modules: ${summary.identical} files identical, ` +
        `${summary.leftAsPdkLeavesIt} left as pdk update leaves them, ${summary.handEdited} hand-edited (each undone gives the rendering), ${summary.unmanaged} unmanaged\n  ${report.join('\n  ')}`,
    );
    expect(summary).toEqual({ identical: 74, leftAsPdkLeavesIt: 2, handEdited: 12, unmanaged: 8 });
  });
});
