/**
 * The language server and the command line on the same broken files: every problem `epp validate`
 * reports is a diagnostic at the same place (LSP positions are 0-based UTF-16 units on lines the protocol
 * splits at CR, LF and CRLF; the CLI's are 1-based, in characters, on lines Puppet counts), with the same
 * code and message.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fs.js';
import { type Diagnostic, LspClient, uriOf } from './client.js';

const BIN = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

interface Place {
  readonly code: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The CLI's problems by file (absolute paths). */
function cliProblemsByFile(cwd: string, args: readonly string[]): Map<string, Place[]> {
  const r = spawnSync(process.execPath, [BIN, '--format', 'json', ...args], { cwd, encoding: 'utf8' });
  const out = JSON.parse(r.stdout) as { problems?: (Place & { hint?: string; file?: string })[] };
  const byFile = new Map<string, Place[]>();
  for (const p of out.problems ?? []) {
    const file = resolve(cwd, p.file ?? '.sync.yml');
    const list = byFile.get(file) ?? [];
    list.push({
      code: p.code,
      line: p.line,
      column: p.column,
      message: p.hint !== undefined ? `${p.message}\n${p.hint}` : p.message,
    });
    byFile.set(file, list);
  }
  return byFile;
}

function sortPlaces(places: readonly Place[]): Place[] {
  return [...places].sort((a, b) => a.line - b.line || a.column - b.column || a.code.localeCompare(b.code));
}

/** An LSP position in `text` as the CLI writes it: 1-based line (at LF), 1-based column in code points. */
function asCli(
  text: string,
  position: { line: number; character: number },
): { line: number; column: number } {
  // The protocol's lines end at CRLF, LF or CR.
  let offset = 0;
  for (let l = 0; l < position.line; l++) {
    const m = /\r\n|\r|\n/g;
    m.lastIndex = offset;
    const found = m.exec(text);
    if (!found) break;
    offset = found.index + found[0].length;
  }
  offset += position.character;
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: [...before.slice(lineStart)].length + 1 };
}

let dir: string;
let client: LspClient;

beforeAll(async () => {
  dir = tempDir();
  client = new LspClient(dir);
  await client.initialize(uriOf(dir));
});

afterAll(async () => {
  expect(await client.close()).toBe(0);
  removeTempDirs();
});

/** Broken files `epp validate` reports (syntax): the same problems, at the same places. */
const SYNTAX: Record<string, string> = {
  'syntax at end': '<%= 1 + %>\n',
  'after non-ASCII': 'héllo wörld <%= 1 + %>\n',
  'after a tab': '\t\t<%= 1 + %>\n',
  'after an astral character': '😀😀 <%= 1 + %>\n',
  'CRLF lines': 'one\r\ntwo\r\n<%= 1 + %>\r\n',
  'lone CR lines': 'one\rtwo\r<%= 1 + %>\n',
  'unclosed tag': 'a\n<%= $x \n',
  'unclosed string': "<%= 'abc %>\n",
  'unclosed double-quoted string after emoji': '😀\t<%= "abc %>\n',
  'resource expression': "<% file { '/tmp/x': } %>\n",
  'unclosed heredoc': '<%= @(END)\nabc\n%>\n',
  'parameters twice': '<%- | $a | -%><%- | $b | -%>\n',
  BOM: '\ufeff<%= 1 + %>\n',
  'CRLF with astral': '😀\r\n😀 <%= $x.  %>\r\n',
  'after a comment': '<%# é %>\t<%= if %>\n',
};

describe('EPP files: diagnostics where `epp validate` says', () => {
  const fileOf = (name: string) => `${name.replace(/[^a-z]+/gi, '-')}.epp`;
  let byFile: Map<string, Place[]>;
  // One `epp validate` of every file: a process per case cost a second or two each.
  beforeAll(() => {
    for (const [name, text] of Object.entries(SYNTAX)) writeFileSync(join(dir, fileOf(name)), text);
    byFile = cliProblemsByFile(dir, ['epp', 'validate', ...Object.keys(SYNTAX).map(fileOf)]);
  });
  for (const [name, text] of Object.entries(SYNTAX)) {
    it(name, async () => {
      const file = fileOf(name);
      const cli = byFile.get(join(dir, file)) ?? [];
      expect(cli.length).toBeGreaterThan(0);
      const uri = uriOf(join(dir, file));
      client.open(uri, text);
      const diagnostics = await client.diagnostics(uri, 1);
      expect(
        diagnostics.map((d) => ({ code: d.code, ...asCli(text, d.range.start), message: d.message })),
      ).toEqual(cli);
    });
  }
});

/** Files that parse but fail to render (or warn): a diagnostic where `epp render` says. */
const RENDER: Record<string, string> = {
  'unknown function after non-ASCII': 'ü😀\t<%= lenght("x") %>\n',
  'unknown variable, CRLF': '<%- | String $name = "x" | -%>\r\n\t😀 <%= $nmae %>\r\n',
  'type mismatch after a tab': '<%- |\tInteger $port = "x" | -%>\n',
  'unknown type': '<%- | Strnig $a = "x" | -%>\n<%= $a %>\n',
  'unrecognized escape after astral text': '😀 <%= "\\q" %>\n',
  'unknown variable in an interpolation': '<%- | $name = "x" | -%>é <%= "a ${nmae} b" %>\n',
};

describe('EPP files: diagnostics where `epp render` fails', () => {
  for (const [name, text] of Object.entries(RENDER)) {
    it(name, async () => {
      const file = `${name.replace(/[^a-z]+/gi, '-')}.epp`;
      writeFileSync(join(dir, file), text);
      const r = spawnSync(process.execPath, [BIN, 'epp', 'render', file], { cwd: dir, encoding: 'utf8' });
      const said = new RegExp(`^${file}:(\\d+):(\\d+): `, 'm').exec(r.stderr);
      expect(said, r.stderr).not.toBeNull();
      const uri = uriOf(join(dir, file));
      client.open(uri, text);
      const diagnostics = await client.diagnostics(uri, 1);
      const places = diagnostics.map((d) => asCli(text, d.range.start));
      expect(places).toContainEqual({ line: Number(said![1]), column: Number(said![2]) });
    });
  }
});

// ---- projects: a template repository made by `new template`, a project using it ----

const EXAMPLE = [
  '<%- |',
  '  String[1]     $greeting,',
  '  Array[String] $extra_lines = [],',
  '| -%>',
  "<%= $greeting %>, <%= $project['name'] %>!",
  '',
].join('\n');
const MANIFEST = `${JSON.stringify({ name: 'greet', description: 'Greets.', version: '0.1.0', default_settings: { greeting: 'Hello', extra_lines: [] } }, null, 2)}\n`;
const SCHEMA = `${JSON.stringify({ type: 'object', properties: { greeting: { type: 'string', minLength: 1 }, extra_lines: { type: 'array', items: { type: 'string' } } } }, null, 2)}\n`;
const SYNC =
  'pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ../tpl\n  templates: [greet]\ngreet:\n  greeting: "Héllo"\n';

type Files = Partial<Record<'.sync.yml' | 'template.json' | 'template_schema.json' | 'example.epp', string>>;

const PROJECT_CASES: Record<string, Files> = {
  'sync: unknown template, wrong type, unknown setting': {
    '.sync.yml':
      'pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ../tpl\n  templates: [greet, gret]\ngreet:\n  greeting: 5\n  unknwn: 1\n',
  },
  'sync: a flow mapping after non-ASCII and astral text': {
    '.sync.yml': `${SYNC.replace('greet:\n  greeting: "Héllo"\n', 'greet: { greeting: "é😀😀", extra_lines: 5 }\n')}`,
  },
  'sync: CRLF': {
    '.sync.yml': `${SYNC}greet_x: 1\n`.replace(/\n/g, '\r\n').replace('greeting: "Héllo"', 'greeting: 7'),
  },
  'sync: BOM': { '.sync.yml': `\ufeff${SYNC.replace('"Héllo"', '[]')}` },
  'sync: YAML syntax error after a tab': { '.sync.yml': `${SYNC}\t😀: [\n` },
  'sync: YAML syntax error after astral text': { '.sync.yml': `${SYNC}other: "😀😀" x: y\n` },
  'sync: unknown pdk_template key': {
    '.sync.yml': SYNC.replace('  templates:', '  tempaltes: []\n  templates:'),
  },
  'sync: wrong type of version': { '.sync.yml': SYNC.replace('version: 2', 'version: "😀"') },
  'sync: settings for a template not applied': { '.sync.yml': `${SYNC}rubocop:\n  x: 1\n` },
  'template.json: JSON error after non-ASCII': { 'template.json': '{\n  "name": "grüß 😀", ,\n}\n' },
  'template.json: wrong types': {
    'template.json': MANIFEST.replace('"0.1.0"', '1').replace('"Greets."', '"😀", "colour": 1'),
  },
  'template.json: CRLF': { 'template.json': MANIFEST.replace('"0.1.0"', 'true').replace(/\n/g, '\r\n') },
  'schema: misspelt type after astral text': {
    'template_schema.json': SCHEMA.replace('"type": "string"', '"description": "😀", "type": "strng"'),
  },
  'schema: unknown keyword, bad $ref': {
    'template_schema.json': SCHEMA.replace(
      '"minLength": 1',
      '"minLenght": 1, "items": { "$ref": "#/definitions/nope" }',
    ),
  },
  'schema: JSON error': { 'template_schema.json': '{ "type": "object", \t"properties": { "é": } }\n' },
  'epp: unknown function and variable after astral text and tabs': {
    'example.epp': `${EXAMPLE}\t😀 <%= $nmae %> <%= lenght('a') %>\n`,
  },
  'epp: syntax error, CRLF': { 'example.epp': `${EXAMPLE}é\t<%= 1 + %>\n`.replace(/\n/g, '\r\n') },
  'epp: render error after astral text': { 'example.epp': `${EXAMPLE}😀 <%= $greeting + 1 %>\n` },
  'epp: type mismatch of a default rendering uses': {
    'example.epp': EXAMPLE.replace('= []', '= "😀"').replace(
      'Array[String] $extra_lines',
      'Array[String] $lines',
    ),
  },
  'epp: type mismatch of a default after a tab': {
    'example.epp': EXAMPLE.replace('  Array[String] $extra_lines = []', '\tArray[String] $lines = {}'),
  },
  'epp: fail() in the template': { 'example.epp': `${EXAMPLE}é <%= fail("no") %>\n` },
};

describe('projects: diagnostics where `validate` says', () => {
  for (const [name, files] of Object.entries(PROJECT_CASES)) {
    it(name, async () => {
      const root = tempDir();
      const paths = {
        '.sync.yml': join(root, 'proj/.sync.yml'),
        'template.json': join(root, 'tpl/greet/template.json'),
        'template_schema.json': join(root, 'tpl/greet/template_schema.json'),
        'example.epp': join(root, 'tpl/greet/files/example.epp'),
      } as const;
      const texts = {
        '.sync.yml': SYNC,
        'template.json': MANIFEST,
        'template_schema.json': SCHEMA,
        'example.epp': EXAMPLE,
        ...files,
      };
      writeTree(root, { 'proj/metadata.json': '{"name": "acme-proj", "version": "0.1.0"}\n' });
      for (const [k, p] of Object.entries(paths)) {
        mkdirSync(dirname(p), { recursive: true });
        writeFileSync(p, texts[k as keyof typeof texts]);
      }
      const cli = cliProblemsByFile(join(root, 'proj'), ['validate']);
      // Open what the case changed, then .sync.yml (which is validated last, after a pause).
      const opened: string[] = [];
      for (const k of Object.keys(files) as (keyof typeof paths)[]) {
        if (k === '.sync.yml') continue;
        const uri = uriOf(paths[k]);
        client.open(uri, texts[k], k.endsWith('.epp') ? 'epp' : 'json');
        await client.diagnostics(uri, 1);
        opened.push(uri);
      }
      const syncUri = uriOf(paths['.sync.yml']);
      client.open(syncUri, texts['.sync.yml'], 'yaml');
      await client.diagnostics(syncUri, 1, 60_000);
      for (const file of Object.values(paths)) {
        const problems = cli.get(file) ?? [];
        const uri = uriOf(file);
        const last = client.log
          .filter(
            (m) =>
              m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri,
          )
          .at(-1);
        const diagnostics = (last?.params as { diagnostics?: Diagnostic[] } | undefined)?.diagnostics ?? [];
        const text = readFileSync(file, 'utf8');
        const server = diagnostics.map((d) => ({
          code: d.code,
          ...asCli(text, d.range.start),
          message: d.message,
        }));
        expect({ file: basename(file), problems: sortPlaces(server) }).toEqual({
          file: basename(file),
          problems: sortPlaces(problems),
        });
      }
      for (const uri of [...opened, syncUri])
        client.notify('textDocument/didClose', { textDocument: { uri } });
    });
  }
});

// ---- a V1 PDK module: metadata.json names pdk-templates 3.5.1 ----

const PDK_TEMPLATES = resolve(import.meta.dirname, '../fixtures/pdk-templates-3.5.1');

const V1_CASES: Record<string, string> = {
  'keys PDK ignores and a key given twice':
    '---\n"é😀": 1\nrubocop.yml:\n  include_todos: true\nGemfile:\n  unamanged: true\nGemfile:\n  required: {}\n',
  'a key PDK ignores, CRLF': '---\r\nGemfile:\r\n  unamanged: true\r\n',
  'an unclosed flow sequence after astral text':
    '---\n.rubocop.yml: {selected_profile: "😀", include_todos: true, x: [1, 2}\n',
  'a setting the ERB cannot take': '---\nGemfile:\n  required: 5\n',
};

describe('a V1 PDK module: diagnostics where `validate --trust` says', () => {
  for (const [name, text] of Object.entries(V1_CASES)) {
    it(name, async () => {
      const root = tempDir();
      writeTree(root, {
        'metadata.json': JSON.stringify({
          name: 'acme-demo',
          version: '0.1.0',
          'template-url': PDK_TEMPLATES,
        }),
        '.sync.yml': text,
      });
      const cli = cliProblemsByFile(root, ['validate', '--trust']);
      expect(cli.size).toBeGreaterThan(0);
      const syncFile = join(root, '.sync.yml');
      const syncUri = uriOf(syncFile);
      for (const trust of [true, false]) {
        const editor = new LspClient(root, process.env, trust ? ['--trust'] : []);
        try {
          await editor.initialize(uriOf(root));
          editor.open(syncUri, text, 'yaml');
          const own = await editor.diagnostics(syncUri, 1, 60_000);
          for (const file of new Set([syncFile, ...cli.keys()])) {
            const uri = uriOf(file);
            const diagnostics =
              file === syncFile
                ? own
                : ((
                    editor.log
                      .filter(
                        (m) =>
                          m.method === 'textDocument/publishDiagnostics' &&
                          (m.params as { uri: string }).uri === uri,
                      )
                      .at(-1)?.params as { diagnostics?: Diagnostic[] } | undefined
                  )?.diagnostics ?? []);
            const fileText = readFileSync(file, 'utf8');
            const server = diagnostics
              .filter((d) => d.code !== 'V1_UNTRUSTED')
              .map((d) => ({ code: d.code, ...asCli(fileText, d.range.start), message: d.message }));
            // Untrusted, the server shows what the file itself says (its YAML, the keys PDK ignores), not
            // what the repository's Ruby finds.
            const expected = (cli.get(file) ?? []).filter(
              (p) => trust || (file === syncFile && p.code !== 'V1_RENDER'),
            );
            expect({ trust, file: basename(file), problems: sortPlaces(server) }).toEqual({
              trust,
              file: basename(file),
              problems: sortPlaces(expected),
            });
          }
        } finally {
          await editor.close();
        }
      }
    });
  }
});
