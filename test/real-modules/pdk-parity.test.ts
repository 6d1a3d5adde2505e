/**
 * The default templates against what pdk-templates wrote in real modules (issue 17, item 2), for the files
 * whose templates follow pdk-templates 3.5.1 byte for byte: `.rubocop.yml` (rubocop) and `Gemfile`
 * (gemfile). Every module of test/fixtures/real-modules is converted (`convert`, written to a scratch copy),
 * validated and planned with the default templates, through the library.
 *
 * Each listed file must be identical to the module's own. The list is every pair that is identical today:
 * the modules rendered at 3.5.1, and those rendered by another pdk-templates whose output for these files
 * is still 3.5.1's. The others differ for reasons recorded below (a hand edit of the module, or a
 * pdk-templates change after 3.5.1); the test checks that the reason still holds, so that a drift of the
 * templates fails here. `scripts/pdk-parity.mjs` prints the figures for every file.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertSyncFile, planProjectAt, validateProject, writeConversion } from '../../src/index.js';

const root = resolve(import.meta.dirname, '../..');
const corpusDir = join(root, 'test/fixtures/real-modules');
const env = { ...process.env, PANTOGRAPH_DEFAULT_SOURCE: join(root, 'templates') };

interface CorpusEntry {
  readonly name: string;
  readonly templateRef: string;
  readonly files: readonly string[];
}
const corpus = (
  JSON.parse(readFileSync(join(corpusDir, 'corpus.json'), 'utf8')) as { modules: CorpusEntry[] }
).modules;

const FILES = ['.rubocop.yml', 'Gemfile'] as const;
type File = (typeof FILES)[number];

/** The modules pdk-templates 3.5.1 rendered (the tag's commit, 9d5b193). */
const AT_3_5_1 = corpus.filter((m) => m.templateRef.endsWith('-g9d5b193')).map((m) => m.name);

/** Identical to what the module holds. */
const IDENTICAL: Readonly<Record<File, readonly string[]>> = {
  '.rubocop.yml': [
    'puppetlabs-acl',
    'puppetlabs-java',
    'puppetlabs-java_ks',
    'puppetlabs-kubernetes',
    'puppetlabs-ntp',
    'puppetlabs-postgresql',
    'puppetlabs-powershell',
    'puppetlabs-reboot',
    'puppetlabs-registry',
    'puppetlabs-stdlib',
    'puppetlabs-vcsrepo',
  ],
  Gemfile: [
    'puppetlabs-concat',
    'puppetlabs-inifile',
    'puppetlabs-java',
    'puppetlabs-mysql',
    'puppetlabs-ntp',
    'puppetlabs-powershell',
    'puppetlabs-reboot',
    'puppetlabs-registry',
    'puppetlabs-vcsrepo',
  ],
};

/** Lines the module's maintainers added by hand after `pdk update` (the commit that did it). */
const HAND_EDITS: Readonly<
  Record<string, { readonly file: File; readonly lines: string; readonly why: string }>
> = {
  'puppetlabs-concat': {
    file: '.rubocop.yml',
    lines: 'Style/HashSyntax:\n  Enabled: false\n',
    why: '03244eb Disable Style/HashSyntax cop entirely',
  },
  'puppetlabs-inifile': {
    file: '.rubocop.yml',
    lines: 'Style/HashSyntax:\n  Enabled: false\n',
    why: 'b9aace6 (CAT-2548): Disable HashSyntax style in RuboCop configuration',
  },
  'puppetlabs-apt': {
    file: '.rubocop.yml',
    lines: 'Style/HashSyntax:\n  Enabled: false\n',
    why: '8611cb5 Disable Style/HashSyntax cop entirely',
  },
  'puppetlabs-exec': {
    file: '.rubocop.yml',
    lines: 'inherit_from: .rubocop_todo.yml\n\n',
    why: '58fcee3 (CAT-2371) Rubocop Update (include_todos never set in .sync.yml)',
  },
  'puppetlabs-mysql': {
    file: '.rubocop.yml',
    lines: 'inherit_from: .rubocop_todo.yml\n\n',
    why: 'a7ab054f Inherit rubocop_todo (include_todos never set in .sync.yml)',
  },
};

/** Rendered by a pdk-templates older than 3.5.1, whose TargetRubyVersion was a quoted string. */
const QUOTED_RUBY: Readonly<Record<string, string>> = {
  'encoretechnologies-patching': '2.6',
  'puppetlabs-facts': '2.6',
  'puppetlabs-haproxy': '2.6',
  'puppetlabs-puppet_authorization': '2.6',
  'puppetlabs-apache': '3.1',
};

interface Outcome {
  readonly errors: readonly string[];
  readonly files: Partial<Record<File, string>>;
  readonly unmanaged: readonly string[];
}
const outcomes = new Map<string, Outcome>();

beforeAll(async () => {
  for (const entry of corpus) {
    const dir = mkdtempSync(join(tmpdir(), `parity-${entry.name}-`));
    try {
      cpSync(join(corpusDir, entry.name), dir, { recursive: true });
      const conversion = await convertSyncFile(dir, { env });
      if (conversion.after !== undefined) writeConversion(conversion);
      const validation = await validateProject(dir, { env });
      const { plan } = await planProjectAt(dir, { env });
      const files: Partial<Record<File, string>> = {};
      for (const f of plan.files) {
        if ((FILES as readonly string[]).includes(f.path) && !f.empty)
          files[f.path as File] = Buffer.from(f.content).toString('utf8');
      }
      outcomes.set(entry.name, {
        errors: validation.problems
          .filter((p) => p.severity === 'error' && /rubocop|gemfile/.test(`${p.message} ${p.file ?? ''}`))
          .map((p) => `${p.code}: ${p.message}`),
        files,
        unmanaged: plan.unmanaged,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}, 120_000);

afterAll(() => outcomes.clear());

const theirs = (name: string, file: File): string => readFileSync(join(corpusDir, name, file), 'utf8');

describe('real modules: .rubocop.yml and Gemfile as pdk-templates 3.5.1 writes them', () => {
  it('covers the six modules rendered at 3.5.1', () => {
    expect(AT_3_5_1.sort()).toEqual(
      ['concat', 'inifile', 'java', 'ntp', 'reboot', 'vcsrepo'].map((n) => `puppetlabs-${n}`),
    );
    for (const name of AT_3_5_1) {
      for (const file of FILES) {
        expect(IDENTICAL[file].includes(name) || HAND_EDITS[name]?.file === file, `${name} ${file}`).toBe(
          true,
        );
      }
    }
  });

  it("converts every module's rubocop and Gemfile settings into settings that validate", () => {
    for (const entry of corpus) expect(outcomes.get(entry.name)?.errors, entry.name).toEqual([]);
  });

  it('manages both files in every module that does not say unmanaged', () => {
    for (const entry of corpus) {
      const o = outcomes.get(entry.name)!;
      for (const file of FILES) {
        if (!entry.files.includes(file) || o.unmanaged.includes(file)) continue;
        expect(o.files[file], `${entry.name} ${file}`).toBeDefined();
      }
    }
  });

  for (const file of FILES) {
    it.each(IDENTICAL[file])(`${file}: %s is identical`, (name) => {
      expect(outcomes.get(name)?.files[file]).toBe(theirs(name, file));
    });
  }

  it.each(Object.entries(HAND_EDITS))('%s differs only by its hand edit', (name, edit) => {
    const fixture = theirs(name, edit.file);
    expect(fixture, edit.why).toContain(edit.lines);
    expect(outcomes.get(name)?.files[edit.file]).toBe(fixture.replace(edit.lines, ''));
  });

  it.each(
    Object.entries(QUOTED_RUBY),
  )('.rubocop.yml: %s differs only by its older TargetRubyVersion', (name, version) => {
    const ours = outcomes.get(name)!.files['.rubocop.yml']!;
    expect(ours).toContain('  TargetRubyVersion: 3.1\n');
    expect(ours.replace('  TargetRubyVersion: 3.1\n', `  TargetRubyVersion: '${version}'\n`)).toBe(
      theirs(name, '.rubocop.yml'),
    );
  });
});
