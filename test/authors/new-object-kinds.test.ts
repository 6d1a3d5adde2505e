/**
 * Issue 17, item 5: `pantograph new task|fact|function|provider|transport|test` write what `pdk new` writes:
 * the same files at the same paths with the same bytes. The oracle is PDK's own generator code run by the
 * system Ruby over pdk-templates' ERB object templates (test/helpers/pdk-objects.ts);
 * each case compares every file the command leaves in a fresh module with the oracle's, path and bytes.
 * Bad names, existing files and a directory that is not a module are refused, with nothing written.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { pdkNew, pdkNewAll } from '../helpers/pdk-objects.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const METADATA = JSON.stringify({ name: 'acme-ntp', version: '0.1.0' });

function pantograph(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What `pdk new <kind> <name>` writes in module `ntp`: path -> text. */
const pdkNewNtp = (kind: string, name: string, options: Record<string, unknown> = {}) =>
  pdkNew(kind, 'ntp', name, options);

/** Every file under `dir` but those of `except`: path -> text. */
function filesIn(dir: string, except: readonly string[] = ['metadata.json']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, r)).isDirectory()) walk(r);
      else if (!except.includes(r)) out[r] = readFileSync(join(dir, r), 'utf8');
    }
  };
  walk('');
  return out;
}

describe('pantograph new task|fact|function|provider|transport: byte for byte as PDK', () => {
  const cases: [kind: string, name: string, flags: string[], options: Record<string, unknown>][] = [
    ['task', 'install', [], {}],
    ['task', 'ntp', [], {}], // the module's own name: tasks/init.*
    [
      'task',
      'sync_2',
      ['--description', 'Syncs "the" clock – vite/fast \\ now\tand then'],
      { description: 'Syncs "the" clock – vite/fast \\ now\tand then' },
    ],
    ['task', 'empty_description', ['--description', ''], { description: '' }],
    [
      'task',
      'controls',
      ['--description', 'a\u0001b\u001fc\bd\fe\rf\ng\u007fh\u2028i"/'],
      { description: 'a\u0001b\u001fc\bd\fe\rf\ng\u007fh\u2028i"/' },
    ],
    ['fact', 'ntp_servers', [], {}],
    ['fact', 'Ntp2', [], {}],
    ['fact', 'if', [], {}],
    ['function', 'to_servers', [], {}],
    ['function', 'ntp::a::b_c', [], {}],
    ['function', 'to_servers', ['--type', 'native'], { type: 'native' }],
    ['function', 'double', ['--type', 'v4'], { type: 'v4' }],
    ['function', 'a::b', ['-t', 'v4'], { type: 'v4' }],
    ['function', 'ntp', ['--type', 'v4'], { type: 'v4' }], // a Ruby function may take the module's name
    ['provider', 'ntp_peer', [], {}],
    ['provider', 'x9__y_', [], {}],
    ['provider', 'ntp', [], {}],
    ['transport', 'appliance', [], {}],
    ['transport', 'my_ntp_box', [], {}],
  ];
  beforeAll(() => pdkNewAll(cases.map(([kind, name, , options]) => [kind, 'ntp', name, options])));
  for (const [kind, name, flags, options] of cases) {
    it(`new ${kind} ${name} ${flags.join(' ')}`, () => {
      const module = tempTree({ 'metadata.json': METADATA });
      const r = pantograph(module, 'new', kind, name, ...flags);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const expected = pdkNewNtp(kind, name, options);
      expect(filesIn(module)).toEqual(expected);
      // the report lists every file, the object first
      const listed = r.stdout.split('\n').slice(1, -1);
      expect(listed.map((l) => l.trim()).sort()).toEqual(Object.keys(expected).sort());
    });
  }

  it('reports the full name and the files', () => {
    const module = tempTree({ 'metadata.json': METADATA });
    expect(pantograph(module, 'new', 'task', 'install').stdout).toBe(
      'created task ntp::install:\n  tasks/install.sh\n  tasks/install.json\n',
    );
    expect(pantograph(module, 'new', 'function', 'to_servers').stdout).toBe(
      'created function ntp::to_servers:\n  functions/to_servers.pp\n  spec/functions/to_servers_spec.rb\n',
    );
    const json = pantograph(module, '--format', 'json', 'new', 'provider', 'ntp_peer');
    expect(JSON.parse(json.stdout)).toEqual({
      kind: 'provider',
      name: 'ntp_peer',
      root: module,
      files: [
        'lib/puppet/type/ntp_peer.rb',
        'lib/puppet/provider/ntp_peer/ntp_peer.rb',
        'spec/unit/puppet/type/ntp_peer_spec.rb',
        'spec/unit/puppet/provider/ntp_peer/ntp_peer_spec.rb',
      ],
    });
  });
});

describe('pantograph new test: the unit test of an existing class or defined type', () => {
  const manifests = {
    'metadata.json': METADATA,
    'manifests/init.pp':
      'class ntp (\n  String $x = "class ntp::decoy {",\n) {\n  # define ntp::in_comment\n}\n',
    'manifests/server/tls.pp':
      "# @summary TLS\nclass ntp::server::tls inherits ntp {\n  $text = @(EOT)\n    class ntp::in_heredoc {\n    | EOT\n  /* define ntp::in_block_comment */\n  notice('define ntp::in_string')\n}\n",
    'manifests/peer.pp': 'define ntp::peer (\n  String $address,\n) {\n}\n',
    'manifests/other.pp': 'class other::thing {\n}\n',
  };

  const cases: [given: string, kind: string, name: string][] = [
    ['server::tls', 'class', 'ntp::server::tls'],
    ['ntp::server::tls', 'class', 'ntp::server::tls'],
    ['ntp', 'class', 'ntp'],
    ['peer', 'defined_type', 'ntp::peer'],
  ];
  beforeAll(() => pdkNewAll(cases.map(([, kind, name]) => [kind, 'ntp', name, { spec_only: true }])));
  for (const [given, kind, name] of cases) {
    it(`new test ${given}: the ${kind} ${name}'s spec, as pdk new test --unit`, () => {
      const module = tempTree(manifests);
      const r = pantograph(module, 'new', 'test', '--unit', given);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const expected = pdkNewNtp(kind, name, { spec_only: true });
      expect(filesIn(module, Object.keys(manifests))).toEqual(expected);
      expect(r.stdout).toBe(
        `created unit test for ${kind === 'class' ? 'class' : 'defined type'} ${name}:\n  ${Object.keys(expected)[0]}\n`,
      );
    });
  }

  it('finds nothing in comments, strings and heredocs, and says what to do', () => {
    const module = tempTree(manifests);
    const before = snapshotDir(module);
    for (const ghost of ['decoy', 'in_comment', 'in_heredoc', 'in_block_comment', 'in_string', 'absent']) {
      const r = pantograph(module, 'new', 'test', ghost);
      expect(r.status, ghost).toBe(1);
      expect(r.stderr).toContain(
        `no class or defined type '${ghost}' or 'ntp::${ghost}' in manifests/ [OBJECT_NOT_FOUND]`,
      );
      expect(r.stderr).toContain(`pantograph new class ${ghost}`);
    }
    expect(snapshotDir(module)).toEqual(before);
  });

  it("refuses a class outside the module's namespace, and an existing spec", () => {
    const module = tempTree({ ...manifests, 'spec/classes/peer_spec.rb': '# mine\n' });
    const before = snapshotDir(module);
    const outside = pantograph(module, 'new', 'test', 'other::thing');
    expect(outside.status).toBe(1);
    expect(outside.stderr).toContain(
      "class 'other::thing' (manifests/other.pp) is outside the module's namespace 'ntp' [OBJECT_NAME]",
    );
    // a defined type's spec lives in spec/defines: spec/classes/peer_spec.rb is no obstacle
    expect(pantograph(module, 'new', 'test', 'peer').status).toBe(0);
    const again = pantograph(module, 'new', 'test', 'peer');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(
      "cannot create unit test for defined type 'ntp::peer': spec/defines/peer_spec.rb already exists [OBJECT_EXISTS]",
    );
    expect(readFileSync(join(module, 'spec/classes/peer_spec.rb'), 'utf8')).toBe('# mine\n');
    expect(Object.keys(snapshotDir(module)).filter((p) => !(p in before))).toEqual([
      'spec/defines/',
      'spec/defines/peer_spec.rb',
    ]);
  });
});

describe('pantograph new: names, existing files and modules, as PDK checks them', () => {
  beforeAll(() =>
    pdkNewAll([
      ['task', 'ntp', 'sync'],
      ['fact', 'ntp', 'ntp_servers'],
      ['class', 'ntp', 'ntp', { spec_only: true }],
      ['provider', 'ntp', 'ntp_peer'],
    ]),
  );
  const bad: [kind: string, name: string, what: string][] = [
    ['task', 'ntp::install', 'task'],
    ['task', 'Install', 'task'],
    ['task', '9lives', 'task'],
    ['task', 'a-b', 'task'],
    ['fact', 'x', 'fact'], // PDK: two characters at least
    ['fact', '../escape', 'fact'],
    ['fact', 'a/b', 'fact'],
    ['fact', '2fa', 'fact'],
    ['function', 'ntp::init', 'function'],
    ['function', 'Double', 'function'],
    ['function', 'a::', 'function'],
    ['provider', 'ntp::peer', 'provider'],
    ['provider', 'NtpPeer', 'provider'],
    ['transport', 'my-box', 'transport'],
    ['test', 'Ntp::Config', 'class or defined type'],
  ];
  for (const [kind, name, what] of bad) {
    it(`refuses new ${kind} '${name}'`, () => {
      const module = tempTree({ 'metadata.json': METADATA });
      const r = pantograph(module, 'new', kind, name);
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`'${name}' is not a valid ${what} name [OBJECT_NAME]`);
      expect(r.stderr).toContain('hint: ');
      expect(filesIn(module)).toEqual({});
    });
  }

  it('refuses a Puppet-language function named as the module (PDK would write functions.pp)', () => {
    const module = tempTree({ 'metadata.json': METADATA });
    const r = pantograph(module, 'new', 'function', 'ntp');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("a Puppet-language function cannot be called 'ntp', the module's own name");
    expect(r.stderr).toContain('ntp::my_function');
    expect(filesIn(module)).toEqual({});
  });

  it('refuses an unknown function type', () => {
    const module = tempTree({ 'metadata.json': METADATA });
    const r = pantograph(module, 'new', 'function', 'double', '--type', 'ruby');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("argument 'ruby' is invalid. Allowed choices are native, v4");
    expect(filesIn(module)).toEqual({});
  });

  it('writes nothing when any target exists (the spec of a provider here)', () => {
    const module = tempTree({
      'metadata.json': METADATA,
      'spec/unit/puppet/provider/ntp_peer/ntp_peer_spec.rb': '# mine\n',
    });
    const before = snapshotDir(module);
    const r = pantograph(module, 'new', 'provider', 'ntp_peer');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "cannot create provider 'ntp_peer': spec/unit/puppet/provider/ntp_peer/ntp_peer_spec.rb already exists [OBJECT_EXISTS]",
    );
    expect(r.stderr).toContain('nothing was written');
    expect(snapshotDir(module)).toEqual(before);
  });

  it('refuses a task that exists in another language; its README and config are no obstacle', () => {
    const module = tempTree({
      'metadata.json': METADATA,
      'tasks/install.py': '#!/usr/bin/env python3\n',
      'tasks/sync.md': '# sync\n',
      'tasks/sync.conf': 'x\n',
      'tasks/init.json': '{}\n',
    });
    const before = snapshotDir(module);
    const r = pantograph(module, 'new', 'task', 'install');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "cannot create task 'ntp::install': tasks/install.py already defines it [OBJECT_EXISTS]",
    );
    // the module's own task is tasks/init.*
    const init = pantograph(module, 'new', 'task', 'ntp');
    expect(init.status).toBe(1);
    expect(init.stderr).toContain("cannot create task 'ntp': tasks/init.json already defines it");
    expect(snapshotDir(module)).toEqual(before);
    expect(pantograph(module, 'new', 'task', 'sync').status).toBe(0);
    expect(readFileSync(join(module, 'tasks/sync.md'), 'utf8')).toBe('# sync\n');
    expect(readFileSync(join(module, 'tasks/sync.sh'), 'utf8')).toBe(
      pdkNewNtp('task', 'sync')['tasks/sync.sh'],
    );
  });

  it('refuses a function that exists in the other language (Puppet would load one of the two); nothing written', () => {
    const module = tempTree({
      'metadata.json': METADATA,
      'lib/puppet/functions/ntp/to_servers.rb':
        'Puppet::Functions.create_function(:"ntp::to_servers") do\nend\n',
      'functions/pick_server.pp': 'function ntp::pick_server() >> String { "a" }\n',
    });
    const before = snapshotDir(module);
    for (const [args, message] of [
      [
        ['to_servers'],
        "cannot create function 'ntp::to_servers': lib/puppet/functions/ntp/to_servers.rb already defines it [OBJECT_EXISTS]",
      ],
      [
        ['ntp::pick_server', '--type', 'v4'],
        "cannot create function 'ntp::pick_server': functions/pick_server.pp already defines it [OBJECT_EXISTS]",
      ],
    ] as const) {
      const r = pantograph(module, 'new', 'function', ...args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(message);
      expect(r.stderr).toContain('nothing was written');
    }
    expect(snapshotDir(module)).toEqual(before);
  });

  it("from a module's subdirectory, as PDK: the module's paths, and which module", () => {
    const module = tempTree({ 'metadata.json': METADATA, 'manifests/init.pp': 'class ntp {\n}\n' });
    const r = pantograph(join(module, 'manifests'), 'new', 'fact', 'ntp_servers');
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      `created fact ntp_servers in ${module}:\n  lib/facter/ntp_servers.rb\n  spec/unit/facter/ntp_servers_spec.rb\n`,
    );
    expect(pantograph(join(module, 'manifests'), 'new', 'test', 'ntp').status).toBe(0);
    expect(filesIn(module, ['metadata.json', 'manifests/init.pp'])).toEqual({
      ...pdkNewNtp('fact', 'ntp_servers'),
      ...pdkNewNtp('class', 'ntp', { spec_only: true }),
    });
  });

  it('a metadata.json that is not JSON, or has no name, is named with what to do', () => {
    const broken = tempTree({ 'metadata.json': '{ "name": ' });
    const r = pantograph(broken, 'new', 'task', 'install');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`cannot read ${join(broken, 'metadata.json')}`);
    expect(r.stderr).toContain('[OBJECT_NOT_MODULE]');
    const nameless = tempTree({ 'metadata.json': '{}' });
    expect(pantograph(nameless, 'new', 'task', 'install').stderr).toContain('has no name');
    expect(filesIn(broken)).toEqual({});
    expect(filesIn(nameless)).toEqual({});
  });

  it('outside a module, every kind says so and what to do', () => {
    const dir = tempDir();
    for (const kind of ['task', 'fact', 'function', 'provider', 'transport', 'test']) {
      const r = pantograph(dir, 'new', kind, 'thing');
      expect(r.status, kind).toBe(1);
      expect(r.stderr).toContain('is not in a module: no metadata.json there or above');
      expect(r.stderr).toContain('[OBJECT_NOT_MODULE]');
      expect(r.stderr).toContain('pantograph init');
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a trusted source's object template may declare fewer values than PDK passes", () => {
    const source = tempTree({
      'object_templates/functions/v4_function.epp': '<%- | String $func_name | -%>\n# <%= $func_name %>\n',
      'object_templates/provider.epp': '# <%= $provider_class %> for <%= $name %>\n', // no parameter list
    });
    const module = tempTree({
      'metadata.json': METADATA,
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - { type: filesystem, location: ${source} }\n    - default\n`,
    });
    expect(pantograph(module, 'new', 'function', 'a::double', '--type', 'v4').status).toBe(0);
    expect(readFileSync(join(module, 'lib/puppet/functions/ntp/a/double.rb'), 'utf8')).toBe('# double\n');
    expect(pantograph(module, 'new', 'provider', 'ntp_peer').status).toBe(0);
    expect(readFileSync(join(module, 'lib/puppet/provider/ntp_peer/ntp_peer.rb'), 'utf8')).toBe(
      '# NtpPeer for ntp_peer\n',
    );
    // the files the source does not have come from the default repository
    expect(readFileSync(join(module, 'lib/puppet/type/ntp_peer.rb'), 'utf8')).toBe(
      pdkNewNtp('provider', 'ntp_peer')['lib/puppet/type/ntp_peer.rb'],
    );
  });
});
