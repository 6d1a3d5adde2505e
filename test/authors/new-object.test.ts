/**
 * Issue 17: `pantograph new class|defined_type` writes what `pdk new class|defined_type` writes: the
 * same paths, and the same bytes as pdk-templates' object templates rendered by Ruby's ERB (the oracle,
 * test/helpers/pdk-objects.ts: PDK's generators run by Ruby). Bad names and existing files are refused with
 * nothing written.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { pdkNew, pdkNewAll } from '../helpers/pdk-objects.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function pantograph(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What PDK writes from pdk-templates' `<template>.erb` for the object `name` (`<module>::...`). */
function pdkRender(template: string, name: string): string {
  const kind = template.replace(/_spec$/, '');
  const files = pdkNew(kind, name.split('::')[0] as string, name);
  const path = Object.keys(files).find((p) => p.startsWith('spec/') === template.endsWith('_spec'));
  if (path === undefined) throw new Error(`no ${template} in ${Object.keys(files).join(', ')}`);
  return files[path] as string;
}

let module: string;
beforeAll(() => {
  module = tempTree({ 'metadata.json': JSON.stringify({ name: 'acme-ntp', version: '0.1.0' }) });
});

describe('pantograph new class|defined_type', () => {
  const cases: [kind: string, given: string, name: string, manifest: string, spec: string][] = [
    ['class', 'config', 'ntp::config', 'manifests/config.pp', 'spec/classes/config_spec.rb'],
    ['class', 'ntp', 'ntp', 'manifests/init.pp', 'spec/classes/ntp_spec.rb'],
    [
      'class',
      'ntp::server::tls',
      'ntp::server::tls',
      'manifests/server/tls.pp',
      'spec/classes/server/tls_spec.rb',
    ],
    ['defined_type', 'peer', 'ntp::peer', 'manifests/peer.pp', 'spec/defines/peer_spec.rb'],
  ];
  // PDK's answer for the name as given and as PDK completes it (the same object, asked both ways).
  beforeAll(() =>
    pdkNewAll(
      cases.flatMap(([kind, given, name]) => [
        [kind, 'ntp', given],
        [kind, 'ntp', name],
      ]),
    ),
  );
  for (const [kind, given, name, manifest, spec] of cases) {
    it(`${kind} ${given}: ${manifest} and ${spec}, byte for byte as PDK`, () => {
      const r = pantograph(module, 'new', kind, given);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(
        `created ${kind === 'class' ? 'class' : 'defined type'} ${name}:\n  ${manifest}\n  ${spec}\n`,
      );
      expect(Object.keys(pdkNew(kind, 'ntp', given)).sort()).toEqual([manifest, spec].sort()); // PDK's paths
      expect(readFileSync(join(module, manifest), 'utf8')).toBe(pdkRender(kind, name));
      expect(readFileSync(join(module, spec), 'utf8')).toBe(pdkRender(`${kind}_spec`, name));
    });
  }

  it('refuses an existing file, and writes nothing', () => {
    const before = snapshotDir(module);
    const r = pantograph(module, 'new', 'class', 'config');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "cannot create class 'ntp::config': manifests/config.pp already exists [OBJECT_EXISTS]",
    );
    expect(snapshotDir(module)).toEqual(before);
  });

  it('refuses names Puppet would not take', () => {
    for (const bad of ['Config', 'ntp::init', '9lives', 'a-b', 'ntp::']) {
      const r = pantograph(module, 'new', 'class', bad);
      expect(r.status, bad).toBe(1);
      expect(r.stderr).toContain(`'${bad}' is not a valid class name [OBJECT_NAME]`);
    }
  });

  it('outside a module, says so', () => {
    const r = pantograph(tempDir(), 'new', 'class', 'x');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('[OBJECT_NOT_MODULE]');
    expect(r.stderr).toContain('pantograph init');
  });

  it('in a module whose metadata.json is broken, says where, and writes nothing', () => {
    const cases: [string, string][] = [
      [
        '{\n  "name": "acme-x",\n  "version": 1,\n}\n',
        'metadata.json: invalid JSON: expected a property name in double quotes [OBJECT_NOT_MODULE]',
      ],
      ['null\n', 'is not a JSON object [OBJECT_NOT_MODULE]'],
      ['["acme-x"]\n', 'is not a JSON object [OBJECT_NOT_MODULE]'],
      ['{"version": "1.0.0"}\n', 'has no name [OBJECT_NOT_MODULE]'],
    ];
    for (const [metadata, message] of cases) {
      const dir = tempTree({ 'metadata.json': metadata });
      const before = snapshotDir(dir);
      const r = pantograph(dir, 'new', 'class', 'x');
      expect(r.status, metadata).toBe(1);
      expect(r.stderr, metadata).toContain(message);
      if (metadata.startsWith('{\n')) expect(r.stderr).toMatch(/^metadata\.json:4:1: error: cannot read \//);
      expect(r.stderr).toContain('hint: ');
      expect(snapshotDir(dir)).toEqual(before);
    }
  });

  it('a metadata.json name that is not a string is said at its value, not as a missing name; nothing written', () => {
    for (const [value, said] of [
      ['5', '5, not a string'],
      ['null', 'null, not a string'],
      ['""', 'empty'],
    ] as const) {
      const dir = tempTree({ 'metadata.json': `{\n  "version": "1.0.0",\n  "name": ${value}\n}\n` });
      const before = snapshotDir(dir);
      const r = pantograph(dir, 'new', 'class', 'x');
      expect(r.status, value).toBe(1);
      expect(r.stderr, value).toMatch(
        new RegExp(
          `^metadata\\.json:3:11: error: the 'name' of metadata\\.json in .* is ${said.replace(/[()]/g, '\\$&')} \\[OBJECT_NOT_MODULE\\]`,
        ),
      );
      expect(r.stderr).toContain('hint: write it as "name": "author-module"');
      expect(snapshotDir(dir)).toEqual(before);
    }
  });

  it('a metadata.json name PDK takes but Puppet refuses (acme-Ntp) or PDK refuses is an error at the name; nothing written', () => {
    const cases: [string, string, string, string][] = [
      [
        'acme-Ntp',
        'class',
        `invalid 'name' field in metadata.json: 'acme-Ntp': Puppet module names are lower case: PDK takes this one and writes names such as 'Ntp::config', which Puppet refuses ("Illegal class reference") [OBJECT_MODULE_NAME]`,
        'hint: rename the module in metadata.json: "name": "acme-ntp"; nothing was written',
      ],
      [
        'ntp',
        'function',
        "'ntp': Field must be a dash-separated user name and module name.",
        'hint: write it as',
      ],
      [
        'acme-my-ntp',
        'defined_type',
        'Module name must contain only alphanumeric or underscore characters.',
        'hint: ',
      ],
      ['acme-1ntp', 'task', 'Module name must begin with a letter.', 'hint: '],
      ['ac.me-ntp', 'test', 'Namespace must contain only alphanumeric characters.', 'hint: '],
    ];
    for (const [name, kind, message, hint] of cases) {
      const dir = tempTree({ 'metadata.json': `{\n  "version": "0.1.0",\n  "name": "${name}"\n}\n` });
      const before = snapshotDir(dir);
      const r = pantograph(dir, 'new', kind, 'config');
      expect(r.status, name).toBe(1);
      expect(r.stderr, name).toMatch(/^metadata\.json:3:11: error: invalid 'name' field in metadata\.json: /);
      expect(r.stderr, name).toContain(message);
      expect(r.stderr, name).toContain(hint);
      expect(snapshotDir(dir), name).toEqual(before);
    }
    // What does not carry the module's name is written as PDK writes it.
    const dir = tempTree({ 'metadata.json': '{"name": "acme-Ntp"}\n' });
    expect(pantograph(dir, 'new', 'fact', 'ntp_servers').status).toBe(0);
    // The object's own name is checked first, as PDK checks it.
    expect(pantograph(dir, 'new', 'class', 'Config').stderr).toContain('[OBJECT_NAME]');
  });

  it("a trusted source's object_templates win over the default's", () => {
    const source = tempTree({
      'object_templates/class.epp': '<%- | String $name | -%>\nclass <%= $name %> { } # ours\n',
    });
    const project = tempTree({
      'metadata.json': JSON.stringify({ name: 'acme-web' }),
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - { type: filesystem, location: ${source} }\n    - default\n`,
    });
    expect(pantograph(project, 'new', 'class', 'vhost').status).toBe(0);
    expect(readFileSync(join(project, 'manifests/vhost.pp'), 'utf8')).toBe('class web::vhost { } # ours\n');
    // the spec template is not in that source: the default's is used
    expect(readFileSync(join(project, 'spec/classes/vhost_spec.rb'), 'utf8')).toBe(
      pdkRender('class_spec', 'web::vhost'),
    );
    writeFileSync(
      join(project, '.sync.yml'),
      `pdk_template:\n  version: 2\n  template_sources:\n    - { type: filesystem, location: ${source}, trusted: false }\n    - default\n`,
    );
    expect(pantograph(project, 'new', 'class', 'other').status).toBe(0);
    expect(readFileSync(join(project, 'manifests/other.pp'), 'utf8')).toBe(pdkRender('class', 'web::other'));
  });
});
