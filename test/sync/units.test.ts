import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { placeholderProblem } from '../../src/shared/post-command.js';
import { type ClassifyInput, classify } from '../../src/sync/classify.js';
import { textPatch, unifiedDiff } from '../../src/sync/diff.js';
import type { SyncError } from '../../src/sync/errors.js';
import { matchesBasename, matchesPath } from '../../src/sync/glob.js';
import { sha256 } from '../../src/sync/hash.js';
import { type LockFile, parseLock, sameLock, serializeLock } from '../../src/sync/lock.js';
import { checkOutputPath } from '../../src/sync/paths.js';
import { commandArgs, splitCommand } from '../../src/sync/post.js';
import { mulberry32 } from '../helpers/random.js';
import { file } from './helpers.js';

const H = (s: string) => sha256(Buffer.from(s));

describe('classify', () => {
  const planned = { file: file('x', 'new\n'), hash: H('new\n') };
  const locked = (rendered: string, disk: string, extra = {}) => ({
    template: 'base',
    source: 'files/x.epp',
    kind: 'file' as const,
    mode: '0644',
    rendered: H(rendered),
    disk: H(disk),
    ...extra,
  });
  const disk = (content: string, mode = 0o644) => ({
    kind: 'file' as const,
    hash: H(content),
    mode,
    content: Buffer.from(content),
  });
  const base: ClassifyInput = {
    planned,
    locked: undefined,
    disk: { kind: 'missing' },
    isNew: false,
    purge: false,
    unmanaged: false,
    deleted: false,
    hasPost: false,
  };
  const state = (extra: Partial<ClassifyInput>) => classify({ ...base, ...extra }).state;

  it.each([
    ['missing file', {}, 'create'],
    ['identical unlocked file', { disk: disk('new\n') }, 'stable'],
    ['different unlocked file', { disk: disk('other\n') }, 'adopt'],
    ['locked, untouched, same output', { locked: locked('new\n', 'new\n'), disk: disk('new\n') }, 'stable'],
    ['locked, untouched, new output', { locked: locked('old\n', 'old\n'), disk: disk('old\n') }, 'changed'],
    ['locked, edited, same output', { locked: locked('new\n', 'new\n'), disk: disk('mine\n') }, 'edited'],
    ['locked, edited, new output', { locked: locked('old\n', 'old\n'), disk: disk('mine\n') }, 'conflict'],
    ['locked, edited to the new output', { locked: locked('old\n', 'old\n'), disk: disk('new\n') }, 'stable'],
    [
      'locked, post-processed',
      { locked: locked('new\n', 'formatted\n'), disk: disk('formatted\n') },
      'stable',
    ],
    ['locked, mode changed', { locked: locked('new\n', 'new\n'), disk: disk('new\n', 0o755) }, 'changed'],
    [
      'resolved, new output',
      { locked: locked('old\n', 'mine\n', { resolved: true }), disk: disk('mine\n') },
      'conflict',
    ],
    ['unmanaged', { unmanaged: true, disk: disk('x') }, 'unmanaged'],
  ] as const)('%s: %s', (_name, extra, expected) => {
    expect(state(extra as Partial<ClassifyInput>)).toBe(expected);
  });

  it('classifies paths no template produces', () => {
    const gone = { planned: undefined, locked: locked('a', 'a'), disk: disk('a') };
    expect(state({ ...gone, purge: true })).toBe('purge');
    expect(state({ ...gone, purge: false })).toBe('unmanaged');
    expect(state({ ...gone, purge: true, disk: disk('mine') })).toBe('edited');
    expect(state({ ...gone, purge: true, disk: { kind: 'missing' } })).toBe('absent');
    expect(state({ planned: undefined, disk: disk('a'), purge: true })).toBe('absent');
    expect(state({ planned: undefined, disk: disk('a'), deleted: true })).toBe('delete');
  });

  it('classifies empty output and init files', () => {
    const empty = { file: file('x', ''), hash: '' };
    expect(state({ planned: empty, locked: locked('a', 'a'), disk: disk('a') })).toBe('delete');
    expect(state({ planned: empty, locked: locked('a', 'a'), disk: disk('mine') })).toBe('edited');
    expect(state({ planned: empty, disk: disk('a') })).toBe('absent');
    const init = { file: file('x', 'i\n', { kind: 'init' }), hash: H('i\n') };
    expect(state({ planned: init, isNew: true })).toBe('create');
    expect(state({ planned: init, isNew: true, disk: disk('other') })).toBe('init');
    expect(state({ planned: init, isNew: false })).toBe('absent');
    expect(
      state({ planned: undefined, locked: locked('i', 'i', { kind: 'init' }), disk: disk('z'), purge: true }),
    ).toBe('init');
  });

  it('reruns post commands that never ran on a file holding the raw output', () => {
    expect(classify({ ...base, disk: disk('new\n'), hasPost: true })).toEqual({
      state: 'changed',
      reason: 'post commands have not run on it',
    });
  });
});

describe('lock serialisation', () => {
  const lock: LockFile = {
    lockVersion: 1,
    engineVersion: '0.1.0',
    sources: [
      {
        type: 'git',
        location: 'https://x/y.git',
        ref: 'main',
        commit: '0123456789abcdef0123456789abcdef01234567',
      },
    ],
    templates: [{ name: 't', version: '1.0.0', source: 0, settings: { z: 1, a: { y: [1] } } }],
    directories: ['b', 'a'],
    files: new Map([
      ['z', { template: 't', source: 'files/z', kind: 'file', mode: '0644', rendered: 'r', disk: 'd' }],
      [
        '__proto__',
        { template: 't', source: 'files/p', kind: 'init', mode: '0755', rendered: 'r', disk: 'd' },
      ],
    ]),
  };

  it('is deterministic, sorted, one line per file, and round-trips', () => {
    const text = serializeLock(lock);
    expect(text).toContain(
      '  "files": {\n    "__proto__": {"template":"t","source":"files/p","kind":"init","mode":"0755","rendered":"r","disk":"d"},\n',
    );
    expect(text).toContain('"directories": [\n    "a",\n    "b"\n  ]');
    expect(text.endsWith('}\n')).toBe(true);
    const back = parseLock(text);
    expect(serializeLock(back)).toBe(text);
    expect([...back.files.keys()]).toEqual(['__proto__', 'z']);
  });

  it('never writes credentials: a lock read with a token in a location is written without it', () => {
    const old = { ...lock, sources: [{ ...lock.sources[0]!, location: 'https://bot:ghp_TOKEN@x/y.git' }] };
    const back = parseLock(serializeLock(old));
    expect(serializeLock(old)).toBe(serializeLock(lock));
    expect(back.sources[0]!.location).toBe('https://x/y.git');
    // The lock read from an older file is not the same lock: apply writes it again, clean.
    expect(sameLock(old, lock)).toBe(false);
  });

  it('sameLock says two locks are the same exactly when their texts are (apply skips writing then)', () => {
    const back = parseLock(serializeLock(lock));
    expect(sameLock(back, lock)).toBe(true);
    expect(sameLock(back, { ...lock, directories: ['a', 'b'] })).toBe(true); // sorted when written
    const files = (change: object) =>
      new Map([...lock.files].map(([p, f]) => [p, p === 'z' ? { ...f, ...change } : f]));
    const changes: LockFile[] = [
      { ...lock, engineVersion: '0.2.0' },
      { ...lock, sources: [{ ...lock.sources[0]!, commit: 'fedcba9876543210fedcba9876543210fedcba98' }] },
      { ...lock, templates: [{ ...lock.templates[0]!, settings: { z: 2, a: { y: [1] } } }] },
      { ...lock, directories: ['a'] },
      { ...lock, files: files({ disk: 'e' }) },
      { ...lock, files: files({ mode: '0755' }) },
      { ...lock, files: files({ resolved: true }) },
      { ...lock, files: new Map([...lock.files].slice(1)) },
    ];
    for (const other of changes) {
      expect(serializeLock(other)).not.toBe(serializeLock(back));
      expect(sameLock(back, other)).toBe(false);
    }
  });

  it.each([
    ['not json', '{'],
    ['wrong version', '{"lockVersion":9}'],
    [
      'bad entry',
      '{"lockVersion":1,"engineVersion":"1","sources":[],"templates":[],"directories":[],"files":{"a":{"kind":"x"}}}',
    ],
  ])('rejects a malformed lock: %s', (_name, text) => {
    expect(() => parseLock(text)).toThrow(expect.objectContaining({ code: 'SYNC_LOCK_INVALID' }));
  });

  // JSON.parse names no position for some errors ("Unexpected token 'x', ... is not valid JSON"): the
  // problem is still placed where the text stops being JSON, not at the file's end.
  it.each([
    ['a stray character before the lock', `x${serializeLock(lock)}`, 1, 1, "invalid JSON: unexpected 'x'"],
    [
      'a key not quoted',
      serializeLock(lock).replace('"engineVersion"', 'engineVersion'),
      3,
      3,
      'invalid JSON: expected a property name in double quotes',
    ],
    [
      'a lock cut short',
      serializeLock(lock).slice(0, -3),
      34,
      4,
      "invalid JSON: expected ',' or '}', found the end of the file",
    ],
  ])('says where a lock stops being JSON: %s', (_name, text, line, column, words) => {
    let error: SyncError | undefined;
    try {
      parseLock(text, '/p/.pantograph.lock');
    } catch (e) {
      error = e as SyncError;
    }
    expect(error?.message).toContain(`.pantograph.lock is not a valid Pantograph lock file: ${words}`);
    expect(error?.position).toEqual({ file: '/p/.pantograph.lock', line, column });
  });

  it('reads a lock an editor saved with a byte order mark', () => {
    const text = serializeLock(lock);
    expect(serializeLock(parseLock(`\ufeff${text}`))).toBe(text);
  });
});

describe('globs', () => {
  it('matches paths, directories and basenames', () => {
    expect(matchesPath('*.yml', '.travis.yml')).toBe(true);
    expect(matchesPath('*.yml', 'a/b.yml')).toBe(false);
    expect(matchesPath('**/*.yml', 'a/b/c.yml')).toBe(true);
    expect(matchesPath('**/*.yml', 'c.yml')).toBe(true);
    expect(matchesPath('spec/fixtures', 'spec/fixtures/a/b')).toBe(true);
    expect(matchesPath('spec/fixtures', 'spec/fixturesX')).toBe(false);
    expect(matchesPath('spec/*', 'spec/a/b')).toBe(true);
    expect(matchesPath('{a,b}.txt', 'b.txt')).toBe(true);
    expect(matchesPath('[!a]?.txt', 'bc.txt')).toBe(true);
    expect(matchesPath('[!a]?.txt', 'ac.txt')).toBe(false);
    expect(matchesPath('a.txt', 'aXtxt')).toBe(false);
    expect(matchesBasename('*.rb', 'lib/x/y.rb')).toBe(true);
    expect(matchesBasename('*.rb', 'lib/x.rb/y')).toBe(false);
    expect(matchesPath('a+b(c)', 'a+b(c)')).toBe(true);
    expect(matchesPath('*(old).md', 'notesold.md')).toBe(false);
    expect(matchesPath('* (old).md', 'notes (old).md')).toBe(true);
    expect(matchesPath('a+b(c)*', 'a+bcx')).toBe(false);
    expect(matchesPath('!keep.txt', '!keep.txt')).toBe(true);
    expect(matchesPath('!keep.txt', 'other.txt')).toBe(false);
  });
});

describe('post command lines', () => {
  it('splits words like a shell, without one', () => {
    expect(splitCommand(`rubocop -a  "a b" 'c "d"' e\\ f "x\\"y" "\\n"`)).toEqual([
      'rubocop',
      '-a',
      'a b',
      'c "d"',
      'e f',
      'x"y',
      '\\n',
    ]);
    expect(splitCommand(`a '' b`)).toEqual(['a', '', 'b']);
  });

  it('replaces {} or appends the path, never as an option', () => {
    expect(commandArgs('fmt -w {}', 'a/b.go')).toEqual(['fmt', '-w', 'a/b.go']);
    expect(commandArgs("fmt -w '{}' {}", 'a')).toEqual(['fmt', '-w', 'a', 'a']);
    expect(commandArgs('fmt', '-weird')).toEqual(['fmt', './-weird']);
    expect(commandArgs('echo $HOME;rm', 'a')).toEqual(['echo', '$HOME;rm', 'a']);
  });

  it('never splices the path into a larger word, and says why such a command is refused', () => {
    const name = 'a$(touch PWN).rb';
    expect(commandArgs("sh -c 'echo formatting {}'", name)).toEqual(['sh', '-c', 'echo formatting {}', name]);
    expect(commandArgs('fmt --file={} x', name)).toEqual(['fmt', '--file={}', 'x', name]);
    expect(commandArgs(`sh -c 'fmt "$1"' sh {}`, name)).toEqual(['sh', '-c', 'fmt "$1"', 'sh', name]);
    expect(placeholderProblem("sh -c 'echo formatting {}'")?.message).toBe(
      'post command "sh -c \'echo formatting {}\'" has {} inside the argument "echo formatting {}": the file\'s name would become part of it (shell code, for `sh -c`), and a template chooses its files\' names',
    );
    expect(placeholderProblem('fmt --file={}')?.message).toContain('inside the argument "--file={}"');
    for (const ok of ['fmt {}', "fmt '{}'", `sh -c 'fmt "$1"' sh {}`, 'fmt', 'fmt a{b}c']) {
      expect(placeholderProblem(ok), ok).toBeUndefined();
    }
  });
});

describe('output path checks', () => {
  it.each([
    ['', 'SYNC_PATH_INVALID'],
    ['../x', 'SYNC_PATH_INVALID'],
    ['a/../../x', 'SYNC_PATH_INVALID'],
    ['/etc/passwd', 'SYNC_PATH_INVALID'],
    ['C:/x', 'SYNC_PATH_INVALID'],
    ['a\\b', 'SYNC_PATH_INVALID'],
    ['a//b', 'SYNC_PATH_INVALID'],
    ['./a', 'SYNC_PATH_INVALID'],
    ['.git/config', 'SYNC_PATH_RESERVED'],
    ['.GIT/hooks/pre-commit', 'SYNC_PATH_RESERVED'],
    ['.sync.yml', 'SYNC_PATH_RESERVED'],
    ['.pantograph.lock', 'SYNC_PATH_RESERVED'],
    ['a/', 'SYNC_PATH_INVALID'],
    ['a/.', 'SYNC_PATH_INVALID'],
    ['a/..', 'SYNC_PATH_INVALID'],
    ['a\0b', 'SYNC_PATH_INVALID'],
    ['z:x', 'SYNC_PATH_INVALID'],
    ['x/.Git/y', 'SYNC_PATH_RESERVED'],
    ['a/b.pantograph-tmp', 'SYNC_PATH_RESERVED'],
    // Names a file system reads as a reserved one (security review qa20, item 2).
    ['.SYNC.YML', 'SYNC_PATH_RESERVED'],
    ['.Pantograph.Lock', 'SYNC_PATH_RESERVED'],
    ['.pantograph.lock.pending', 'SYNC_PATH_RESERVED'],
    ['.pantograph.lock.posted', 'SYNC_PATH_RESERVED'],
    ['.pantograph.lock.lck', 'SYNC_PATH_RESERVED'],
    ['.g\u200cit/hooks/pre-commit', 'SYNC_PATH_RESERVED'],
    ['a/.git./config', 'SYNC_PATH_RESERVED'],
    ['GIT~1/config', 'SYNC_PATH_RESERVED'],
    ['a/Gemfile.pantograph-new', 'SYNC_PATH_RESERVED'],
    ['a/Gemfile.PANTOGRAPH-NEW', 'SYNC_PATH_RESERVED'],
    // Control characters: a name that passes for other lines of a listing, or drives the terminal.
    ['a\nb.rb', 'SYNC_PATH_INVALID'],
    ['a\tb', 'SYNC_PATH_INVALID'],
    ['x/\u001b[31mred', 'SYNC_PATH_INVALID'],
    ['a\u0085b', 'SYNC_PATH_INVALID'],
    ['a\u2028b', 'SYNC_PATH_INVALID'],
  ])('refuses %j', (path, code) => {
    expect(() => checkOutputPath(path)).toThrow(expect.objectContaining({ code }));
  });

  it('says which reserved name a path is read as, where, and by which template', () => {
    expect(() => checkOutputPath('.SYNC.YML', 'evil')).toThrow(
      'Output path ".SYNC.YML" of template evil is reserved: ".SYNC.YML" is .sync.yml on macOS and Windows (which compare names without case)',
    );
    expect(() => checkOutputPath('.g\u200cit/hooks/pre-commit')).toThrow(
      'Output path ".g\\u200cit/hooks/pre-commit" is reserved: ".g\\u200cit" is .git on macOS HFS+ (which ignores U+200C in names)',
    );
    expect(() => checkOutputPath('.git/config')).toThrow(/^Output path "\.git\/config" is reserved$/);
    expect(() => checkOutputPath('a\nb.rb')).toThrow(
      'Output path "a\\nb.rb" contains a control character (U+000A)',
    );
  });

  it('accepts ordinary paths', () => {
    expect(() => checkOutputPath('.github/workflows/ci.yml')).not.toThrow();
    expect(() => checkOutputPath('a/.gitignore')).not.toThrow();
    for (const path of [
      '..a',
      '...',
      'a/..b/c',
      '1:x',
      'ab:c',
      'a/.pantograph.lock',
      'a/.sync.yml',
      '.gitx',
    ]) {
      expect(() => checkOutputPath(path), path).not.toThrow();
    }
  });
});

describe('diffs', () => {
  it('is empty for equal content, and says when content is binary', () => {
    expect(unifiedDiff('x', Buffer.from('a'), Buffer.from('a'))).toBe('');
    expect(unifiedDiff('x', Buffer.from([0, 1]), Buffer.from([0, 2]))).toBe(
      'Binary files a/x and b/x differ\n',
    );
    expect(unifiedDiff('x', Buffer.from('a\n'), undefined)).toBe(
      '--- a/x\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a\n',
    );
  });

  it('says when only the line endings tell the two sides apart (a \\r is invisible on a terminal)', () => {
    const patch = unifiedDiff('x', Buffer.from('a\r\nb\r\n'), Buffer.from('a\nb\n'));
    expect(patch.split('\n')[0]).toBe('line endings differ: a/x has CRLF (Windows), b/x has LF');
    // The patch after the note is the real one, and still applies.
    expect(applyPatch('a\r\nb\r\n', patch.slice(patch.indexOf('---')))).toBe('a\nb\n');
    expect(unifiedDiff('x', Buffer.from('a\n'), Buffer.from('b\n')).startsWith('---')).toBe(true);
  });

  it('shows a change too large for a minimal diff as one replaced block, at once', () => {
    // 20,000 lines rewritten: jsdiff unbounded took 74 s on this machine (its time grows with the square
    // of the lines changed); beyond MAX_EDIT_LENGTH the patch is made in linear time.
    const lines = (n: number, text: string) => Array.from({ length: n }, (_, i) => `${text} ${i}\n`).join('');
    const before = `# header\n${lines(20_000, 'old line')}# footer\n`;
    const after = `# header\n${lines(20_000, 'new line')}# footer\n`;
    const patch = unifiedDiff('big.txt', Buffer.from(before), Buffer.from(after));
    expect(
      patch.startsWith('--- a/big.txt\n+++ b/big.txt\n@@ -1,20002 +1,20002 @@\n # header\n-old line 0\n'),
    ).toBe(true);
    expect(patch.endsWith('+new line 19999\n # footer\n')).toBe(true);
    // The patch applies: it is a real diff, not a summary.
    expect(applyPatch(before, patch)).toBe(after);
  });

  it('keeps a minimal diff for a few changes in a long file', () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => `line ${i}\n`);
    const edited = [...lines];
    edited[100] = 'changed near the top\n';
    edited[2_900] = 'changed near the end\n';
    const patch = unifiedDiff('long.txt', Buffer.from(lines.join('')), Buffer.from(edited.join('')));
    expect(patch.match(/^@@ /gm)).toHaveLength(2);
    expect(patch).toContain('@@ -97,9 +97,9 @@\n');
  });

  it('makes the replaced block exactly the patch jsdiff makes, where that patch is one block', () => {
    const rng = mulberry32(0x5eed);
    const pick = (n: number) => Math.floor(rng() * n);
    const text = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}\n`);
    for (let run = 0; run < 300; run++) {
      const head = text('same-head ', pick(8));
      const tail = text('same-tail ', pick(8));
      const removed = text('old ', pick(12));
      const added = text('new ', pick(12));
      if (removed.length + added.length === 0) continue;
      let a = [...head, ...removed, ...tail].join('');
      let b = [...head, ...added, ...tail].join('');
      // Files that end without a line break, on either side (where the last line is in the block: a
      // shared last line that only one side ends without a break is a line the two blocks have in common).
      if (tail.length === 0 && rng() < 0.3) a = a.replace(/\n$/, '');
      if (tail.length === 0 && rng() < 0.3) b = b.replace(/\n$/, '');
      if (a === b) continue;
      const minimal = textPatch('a/f', 'b/f', a, b, Number.MAX_SAFE_INTEGER);
      const block = textPatch('a/f', 'b/f', a, b, 0);
      expect(block, JSON.stringify({ a, b })).toBe(minimal);
    }
  });
});
