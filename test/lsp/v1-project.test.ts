/**
 * The language server on a `.sync.yml` that is not V2: a modulesync module (voxpupuli's configuration 10.8.0
 * over puppet-autofs, which it synced). The editor gives the server no `--template-url`: it says how to
 * name the configuration, then finds it in the lock an `apply` wrote; hover says what the keys are rather
 * than nothing. Without `--trust` (the default) nothing of the repository runs, but completion and hover
 * come from its data: the files of `moduleroot/` and the keys and defaults of `config_defaults.yml`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir } from '../helpers/fs.js';
import { type Diagnostic, LspClient, uriOf } from './client.js';

afterAll(removeTempDirs);

const FIXTURES = resolve(import.meta.dirname, '../fixtures/modulesync');
const CONFIGURATION = join(FIXTURES, 'modulesync_config-10.8.0');
const BIN = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const PDK_TEMPLATES = resolve(import.meta.dirname, '../fixtures/pdk-templates-3.5.1');

function autofs(): string {
  const root = join(tempDir(), 'puppet-autofs');
  cpSync(join(FIXTURES, 'modules/puppet-autofs'), root, { recursive: true });
  return root;
}

type At = { line: number; character: number };

async function inEditor(root: string, args: string[], hoverAt?: At, completeAt?: At) {
  const client = new LspClient(root, process.env, args);
  try {
    await client.initialize(uriOf(root));
    const uri = uriOf(join(root, '.sync.yml'));
    client.open(uri, readFileSync(join(root, '.sync.yml'), 'utf8'), 'yaml');
    const diagnostics = await client.diagnostics(uri, 1);
    const hover = hoverAt
      ? (
          await client.request<{ contents: { value: string } }>('textDocument/hover', {
            textDocument: { uri },
            position: hoverAt,
          })
        ).result
      : undefined;
    const completion = completeAt
      ? (
          await client.request<
            { label: string; detail: string }[] | { items: { label: string; detail: string }[] }
          >('textDocument/completion', { textDocument: { uri }, position: completeAt })
        ).result
      : undefined;
    const items =
      completion === undefined ? undefined : Array.isArray(completion) ? completion : completion.items;
    return { diagnostics, hover, items };
  } finally {
    await client.close();
  }
}

describe('a modulesync module in the editor', () => {
  it('with no configuration named: the error says how to name one for the editor, which takes no option', async () => {
    const { diagnostics } = await inEditor(autofs(), ['--trust']);
    expect(diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([['SYNC_MODULESYNC', 1]]);
    expect(diagnostics[0]!.message.split('\n').at(-1)).toBe(
      "In the editor, which is given no --template-url: run `pantograph apply --template-url ...` once in the module; the language server then takes the repository from .pantograph.lock (started with --trust: it runs the repository's Ruby).",
    );
  });

  it('after one apply: checked with the configuration from the lock, and hover says what a key is', async () => {
    const root = autofs();
    const applied = spawnSync(process.execPath, [BIN, 'apply', '--yes', '--template-url', CONFIGURATION], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(applied.status).toBe(0);
    // `Gemfile:` is line 2; `':test':` under it line 4.
    const trusted = await inEditor(root, ['--trust'], { line: 1, character: 2 });
    expect(trusted.diagnostics).toEqual([]);
    expect(trusted.hover?.contents.value).toBe(
      `\`Gemfile\` is a file of the modulesync configuration ${CONFIGURATION}: its settings are what \`moduleroot/Gemfile.erb\` reads there, and no schema describes them.\n\nconfig_defaults.yml gives \`Gemfile\`: \`openvox_version\`, \`required\`.\n\nSettings are described for V2 templates only; here \`pantograph render Gemfile\` shows what the settings give.`,
    );
    const lines = readFileSync(join(root, '.sync.yml'), 'utf8').split('\n').length;
    const nested = await inEditor(
      root,
      ['--trust'],
      { line: 3, character: 6 },
      { line: lines - 1, character: 0 },
    );
    expect(nested.hover?.contents.value).toContain('`Gemfile` is a file of the modulesync configuration');
    // Completion of a top-level key offers the configuration's files, not `pdk_template` (a V2 file's key).
    const labels = nested.items?.map((i) => i.label) ?? [];
    expect(labels).toContain('Gemfile');
    expect(labels).toContain('.github/workflows/ci.yml');
    expect(labels).not.toContain('pdk_template');
    expect(nested.items?.find((i) => i.label === 'Gemfile')?.detail).toBe(
      'a file of the modulesync configuration',
    );
    // Untrusted (the default), its Ruby does not run, and the diagnostic says where the configuration came from.
    const untrusted = await inEditor(root, []);
    expect(untrusted.diagnostics.map((d) => d.code)).toEqual(['V1_UNTRUSTED']);
    expect(untrusted.diagnostics[0]!.message).toContain(
      `the modulesync configuration ${CONFIGURATION} (recorded in .pantograph.lock by an earlier run) runs Ruby code`,
    );
  });
});

describe("without --trust: what the repository's data says, no Ruby run", () => {
  it('a modulesync module: completion of files and of the keys config_defaults.yml gives, hover with their defaults', async () => {
    const root = autofs();
    const applied = spawnSync(process.execPath, [BIN, 'apply', '--yes', '--template-url', CONFIGURATION], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(applied.status).toBe(0);
    // `Gemfile:` is line 2; `':test':` under `optional:` line 4.
    const top = await inEditor(root, [], { line: 3, character: 6 }, { line: 0, character: 0 });
    expect(top.diagnostics.map((d) => d.code)).toEqual(['V1_UNTRUSTED']);
    const gemfile = top.items?.find((i) => i.label === 'Gemfile');
    expect(gemfile).toMatchObject({
      detail: 'a file of the modulesync configuration',
      documentation: { value: 'config_defaults.yml gives `Gemfile`: `openvox_version`, `required`.' },
    });
    expect(top.items?.map((i) => i.label)).not.toContain('pdk_template');
    expect(top.hover?.contents.value).toContain(
      'config_defaults.yml gives `Gemfile` › `optional` › `:test` no default',
    );
    expect(top.hover?.contents.value).toContain(
      'The language server runs no Ruby without `--trust`: this file is not checked and its files not rendered. `pantograph lsp --trust` (for a repository you trust) checks it as `status` does',
    );
    // A key typed under `Gemfile:` (a blank line, cursor at column 2): its keys, with their defaults.
    const typed = readFileSync(join(root, '.sync.yml'), 'utf8').replace('Gemfile:\n', 'Gemfile:\n  \n');
    writeFileSync(join(root, '.sync.yml'), typed);
    const under = await inEditor(root, [], { line: 1, character: 2 }, { line: 2, character: 2 });
    expect(under.items?.map((i) => [i.label, i.detail])).toEqual([
      ['openvox_version', 'default: [">= 7","< 9"]'],
      ['required', expect.stringMatching(/^default: \{":test":\[\{"gem":"voxpupuli-test"/)],
    ]);
  });

  it('a PDK module: the V1 repository named by metadata.json, hover on a key with its default', async () => {
    const root = tempDir();
    writeFileSync(
      join(root, 'metadata.json'),
      JSON.stringify({ name: 'acme-demo', version: '0.1.0', 'template-url': PDK_TEMPLATES }),
    );
    writeFileSync(join(root, '.sync.yml'), '---\n.rubocop.yml:\n  selected_profile: cleanups_only\n');
    const { diagnostics, hover, items } = await inEditor(
      root,
      [],
      { line: 2, character: 4 },
      { line: 3, character: 0 },
    );
    expect(diagnostics.map((d) => d.code)).toEqual(['V1_UNTRUSTED']);
    expect(hover?.contents.value).toContain(
      'Default of `.rubocop.yml` › `selected_profile` (config_defaults.yml):\n\n```yaml\nstrict\n```',
    );
    expect(items?.find((i) => i.label === 'common')?.detail).toBe('settings every file reads');
    expect(items?.find((i) => i.label === 'Gemfile')?.detail).toBe('a file of the V1 template repository');
  });

  it('runs none of the repository: its ERB writes no file while completion and hover read its data', async () => {
    const repo = tempDir();
    const marker = join(tempDir(), 'ran');
    mkdirSync(join(repo, 'moduleroot'));
    mkdirSync(join(repo, 'moduleroot_init'));
    writeFileSync(
      join(repo, 'moduleroot/notes.txt.erb'),
      `<% File.write(${JSON.stringify(marker)}, 'x') %><%= @configs['title'] %>\n`,
    );
    writeFileSync(join(repo, 'config_defaults.yml'), "notes.txt:\n  title: 'Notes'\n");
    const root = tempDir();
    writeFileSync(join(root, 'metadata.json'), JSON.stringify({ name: 'acme-x', 'template-url': repo }));
    writeFileSync(join(root, '.sync.yml'), 'notes.txt:\n  title: Mine\n');
    const { hover, items } = await inEditor(root, [], { line: 1, character: 3 }, { line: 2, character: 0 });
    expect(hover?.contents.value).toContain('```yaml\nNotes\n```');
    expect(items?.map((i) => i.label)).toEqual(['notes.txt']);
    expect(existsSync(marker)).toBe(false);
  });
});

/** Hovers at each place in a `.sync.yml` opened in the server started with `args`. */
async function hovers(root: string, args: string[], places: At[]): Promise<string[]> {
  const client = new LspClient(root, process.env, args);
  try {
    await client.initialize(uriOf(root));
    const uri = uriOf(join(root, '.sync.yml'));
    client.open(uri, readFileSync(join(root, '.sync.yml'), 'utf8'), 'yaml');
    const values: string[] = [];
    for (const position of places) {
      const answer = await client.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri },
        position,
      });
      values.push(answer.result?.contents.value ?? '');
    }
    return values;
  } finally {
    await client.close();
  }
}

const ranged = (ds: readonly Diagnostic[]) =>
  ds.map((d) => [
    d.code,
    d.severity,
    `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
  ]);

describe('without --trust: what the file itself says, beside V1_UNTRUSTED', () => {
  it("keys PDK ignores and a key given twice, where the trusted server puts them; the module's files untouched", async () => {
    const root = tempDir();
    writeFileSync(
      join(root, 'metadata.json'),
      JSON.stringify({ name: 'acme-demo', version: '0.1.0', 'template-url': PDK_TEMPLATES }),
    );
    writeFileSync(
      join(root, '.sync.yml'),
      [
        '---',
        '.rubocop.yml:',
        '  selected_profile: cleanups_only',
        'rubocop.yml:', // 3: meant .rubocop.yml
        '  include_todos: true',
        'Gemfile:',
        '  unamanged: true', // 6: meant unmanaged
        'Gemfile:', // 7: given twice
        '  required: {}',
        '',
      ].join('\n'),
    );
    const before = snapshotDir(root);
    const untrusted = await inEditor(root, []);
    const fromData = [
      ['SYNC_YAML', 2, '7:0-7:7'],
      ['V1_SYNC_KEY', 2, '3:0-3:11'],
      ['V1_SYNC_KEY', 2, '6:2-6:11'],
    ];
    expect(ranged(untrusted.diagnostics)).toEqual([['V1_UNTRUSTED', 1, '0:0-0:3'], ...fromData]);
    const [, twice, misspelt, flag] = untrusted.diagnostics;
    expect(twice!.message.split('\n')[0]).toBe(
      "Map keys must be unique: Ruby's YAML, and so PDK, keeps the last one",
    );
    expect(misspelt!.message).toContain(
      "'rubocop.yml' is no file of the V1 repository: PDK ignores its settings; did you mean '.rubocop.yml'?",
    );
    expect(flag!.message).toContain(
      "'Gemfile: unamanged' is no setting PDK reads: did you mean 'unmanaged'?",
    );
    expect(snapshotDir(root)).toEqual(before);
    // The same warnings at the same places as when the repository's Ruby runs.
    const trusted = await inEditor(root, ['--trust']);
    expect(ranged(trusted.diagnostics)).toEqual(fromData);
    expect(trusted.diagnostics.map((d) => d.message)).toEqual(
      untrusted.diagnostics.slice(1).map((d) => d.message),
    );
  });

  it('a syntax error at its place; a modulesync module (whose msync stops on such keys) gets no PDK warning', async () => {
    const root = tempDir();
    writeFileSync(
      join(root, 'metadata.json'),
      JSON.stringify({ name: 'acme-demo', version: '0.1.0', 'template-url': PDK_TEMPLATES }),
    );
    writeFileSync(join(root, '.sync.yml'), '---\n.rubocop.yml:\n  selected_profile: "cleanups_only\n');
    const broken = await inEditor(root, []);
    expect(ranged(broken.diagnostics)).toEqual([['SYNC_YAML', 1, '2:20-2:21']]);
    expect(readFileSync(join(root, '.sync.yml'), 'utf8')).toContain('"cleanups_only\n');

    const autofsRoot = autofs();
    const applied = spawnSync(process.execPath, [BIN, 'apply', '--yes', '--template-url', CONFIGURATION], {
      cwd: autofsRoot,
      encoding: 'utf8',
    });
    expect(applied.status).toBe(0);
    const sync = join(autofsRoot, '.sync.yml');
    writeFileSync(sync, `${readFileSync(sync, 'utf8')}Rakefle:\n  x: 1\n`);
    const msync = await inEditor(autofsRoot, []);
    expect(msync.diagnostics.map((d) => d.code)).toEqual(['V1_UNTRUSTED']);
  });
});

describe("hover reads the repository's ERB (never runs it) for keys config_defaults.yml lacks", () => {
  it('names the template and line reading a key, every template reading a `common` key, and a key none reads', async () => {
    const repo = tempDir();
    const marker = join(tempDir(), 'ran');
    mkdirSync(join(repo, 'moduleroot'));
    mkdirSync(join(repo, 'moduleroot_init'));
    writeFileSync(
      join(repo, 'moduleroot/notes.txt.erb'),
      `<% File.write(${JSON.stringify(marker)}, 'x') %><%= @configs['title'] %>\n<% if @configs.dig('extra', 'colour') %>red<% end %>\n`,
    );
    writeFileSync(join(repo, 'moduleroot/other.txt.erb'), "\n<%= @configs['owner'] %>\n");
    writeFileSync(join(repo, 'moduleroot/third.txt.erb'), "<%= @configs['owner'] %>\n");
    writeFileSync(join(repo, 'config_defaults.yml'), "notes.txt:\n  title: 'Notes'\n");
    const root = tempDir();
    writeFileSync(join(root, 'metadata.json'), JSON.stringify({ name: 'acme-x', 'template-url': repo }));
    writeFileSync(
      join(root, '.sync.yml'),
      [
        'notes.txt:',
        '  title: Mine',
        '  extra:',
        '    colour: blue', // 3
        '  subtitle: x', // 4
        'common:',
        '  owner: me', // 6
        '  group: staff', // 7
        '',
      ].join('\n'),
    );
    const [colour, subtitle, owner, group] = await hovers(
      root,
      [],
      [
        { line: 3, character: 6 },
        { line: 4, character: 4 },
        { line: 6, character: 4 },
        { line: 7, character: 4 },
      ],
    );
    expect(colour).toContain(
      "config_defaults.yml gives `notes.txt` › `extra` › `colour` no default; read as `@configs['extra']['colour']` by `moduleroot/notes.txt.erb` (line 2).",
    );
    expect(subtitle).toContain(
      "config_defaults.yml gives `notes.txt` › `subtitle` no default; its template does not read it as `@configs['subtitle']`: unless it reads it another way (a key it computes), the setting does nothing.",
    );
    expect(owner).toContain(
      "config_defaults.yml gives `common` › `owner` no default; read as `@configs['owner']` by `moduleroot/other.txt.erb` (line 2), `moduleroot/third.txt.erb` (line 1).",
    );
    expect(group).toContain(
      "no template of `moduleroot/` or `moduleroot_init/` reads it as `@configs['group']`: unless one reads it another way",
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('reads `moduleroot_init/` templates too, and in code tags only (text, comments and literals run nothing)', async () => {
    const repo = tempDir();
    mkdirSync(join(repo, 'moduleroot'));
    mkdirSync(join(repo, 'moduleroot_init'));
    writeFileSync(
      join(repo, 'moduleroot_init/README.md.erb'),
      [
        "# Set @configs['title'] in .sync.yml", // text: not a read
        "<%# @configs['owner'] is shown below %>", // a comment
        "<%%= @configs['group'] %>", // a literal `<%=`: text
        "<%= @configs['owner'] %>", // 4: the read
        '',
      ].join('\n'),
    );
    const root = tempDir();
    writeFileSync(join(root, 'metadata.json'), JSON.stringify({ name: 'acme-x', 'template-url': repo }));
    writeFileSync(join(root, '.sync.yml'), 'README.md:\n  title: Mine\n  owner: me\n  group: staff\n');
    const [file, title, owner, group] = await hovers(
      root,
      [],
      [
        { line: 0, character: 2 },
        { line: 1, character: 4 },
        { line: 2, character: 4 },
        { line: 3, character: 4 },
      ],
    );
    expect(file).toContain('its settings are what `moduleroot_init/README.md.erb` reads there');
    expect(owner).toContain(
      "The repository has no config_defaults.yml; read as `@configs['owner']` by `moduleroot_init/README.md.erb` (line 4).",
    );
    for (const [hover, key] of [
      [title, 'title'],
      [group, 'group'],
    ])
      expect(hover).toContain(
        `The repository has no config_defaults.yml; its template does not read it as \`@configs['${key}']\``,
      );
    const { items } = await inEditor(root, [], undefined, { line: 4, character: 0 });
    expect(items?.map((i) => i.label)).toEqual(['README.md']);
  });

  it('a template over the size limit is not read, and hover says so', async () => {
    const repo = tempDir();
    mkdirSync(join(repo, 'moduleroot'));
    mkdirSync(join(repo, 'moduleroot_init'));
    writeFileSync(join(repo, 'moduleroot/huge.txt.erb'), `${'#'.repeat(300_000)}<%= @configs['hidden'] %>\n`);
    const root = tempDir();
    writeFileSync(join(root, 'metadata.json'), JSON.stringify({ name: 'acme-x', 'template-url': repo }));
    writeFileSync(join(root, '.sync.yml'), 'huge.txt:\n  hidden: 1\n');
    const [hover] = await hovers(root, [], [{ line: 1, character: 4 }]);
    expect(hover).toContain(
      "The repository has no config_defaults.yml; its template does not read it as `@configs['hidden']` (1 template over the size limits not read)",
    );
  });
});
