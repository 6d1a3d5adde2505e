/**
 * Reserved names as file systems read them (security review qa20, item 2): `.SYNC.YML` is the project's
 * `.sync.yml` on macOS and Windows, `.g<U+200C>it` is `.git` on HFS+, `.git.` and `GIT~1` are `.git` on
 * NTFS. Each is reserved with the name it stands for and why; ordinary names, and reserved names below the
 * root where only `.git` is reserved, are not.
 */
import { describe, expect, it } from 'vitest';
import { describeReserved, reservedSegment } from '../../src/shared/reserved-names.js';

const CASE = 'on macOS and Windows (which compare names without case)';

describe('reservedSegment', () => {
  it.each([
    ['.git/config', '.git', '.git', undefined],
    ['a/b/.git/hooks/pre-commit', '.git', '.git', undefined],
    ['.GIT/hooks/pre-commit', '.GIT', '.git', CASE],
    ['sub/.Git', '.Git', '.git', CASE],
    ['.g\u200cit/hooks/pre-commit', '.g\u200cit', '.git', 'on macOS HFS+ (which ignores U+200C in names)'],
    [
      '.\ufeffgi\u200dt/config',
      '.\ufeffgi\u200dt',
      '.git',
      'on macOS HFS+ (which ignores U+FEFF, U+200D in names)',
    ],
    ['.git./config', '.git.', '.git', 'on Windows (which drops trailing dots and spaces)'],
    ['.git . /config', '.git . ', '.git', 'on Windows (which drops trailing dots and spaces)'],
    [
      '.git::$INDEX_ALLOCATION/config',
      '.git::$INDEX_ALLOCATION',
      '.git',
      'on Windows NTFS (where "::$INDEX_ALLOCATION" names a stream of a file)',
    ],
    ['GIT~1/config', 'GIT~1', '.git', 'on Windows NTFS (as its 8.3 short name)'],
    ['.sync.yml', '.sync.yml', '.sync.yml', undefined],
    ['.SYNC.YML', '.SYNC.YML', '.sync.yml', CASE],
    ['.Sync.yml/x', '.Sync.yml', '.sync.yml', CASE],
    // Case folding as NTFS's upper-case table and APFS's folding do: dotless i, long s, Kelvin sign.
    ['.gıt/config', '.gıt', '.git', CASE],
    ['.ſync.yml', '.ſync.yml', '.sync.yml', CASE],
    ['.pantograph.loc\u212a', '.pantograph.loc\u212a', '.pantograph.lock', CASE],
    ['SYNC~1.YML', 'SYNC~1.YML', '.sync.yml', 'on Windows NTFS (as its 8.3 short name)'],
    ['.pantograph.lock', '.pantograph.lock', '.pantograph.lock', undefined],
    ['.Pantograph.Lock', '.Pantograph.Lock', '.pantograph.lock', CASE],
    ['.pantograph.lock.pending', '.pantograph.lock.pending', '.pantograph.lock.pending', undefined],
    ['.pantograph.lock.posted', '.pantograph.lock.posted', '.pantograph.lock.posted', undefined],
    ['.pantograph.lock.lck', '.pantograph.lock.lck', '.pantograph.lock.lck', undefined],
    ['.PANTOGRAPH.LOCK.PENDING', '.PANTOGRAPH.LOCK.PENDING', '.pantograph.lock.PENDING', CASE],
    ['PANTOG~1.PEN', 'PANTOG~1.PEN', '.pantograph.lock', 'on Windows NTFS (as its 8.3 short name)'],
    ['a/Gemfile.pantograph-new', 'Gemfile.pantograph-new', 'Gemfile.pantograph-new', undefined],
    ['a/Gemfile.Pantograph-New', 'Gemfile.Pantograph-New', 'Gemfile.pantograph-new', CASE],
    ['x.pantograph-tmp', 'x.pantograph-tmp', 'x.pantograph-tmp', undefined],
  ])('%j is reserved as %j stands for %j', (path, segment, reserved, because) => {
    expect(reservedSegment(path)).toEqual({ segment, reserved, because });
  });

  it('says which name a segment is, and where, with what cannot be seen escaped', () => {
    expect(describeReserved(reservedSegment('.g\u200cit/hooks/pre-commit')!)).toBe(
      '".g\\u200cit" is .git on macOS HFS+ (which ignores U+200C in names)',
    );
    expect(describeReserved(reservedSegment('.SYNC.YML')!)).toBe(`".SYNC.YML" is .sync.yml ${CASE}`);
    expect(describeReserved(reservedSegment('.git/x')!)).toBe('.git');
  });

  it.each([
    'Gemfile',
    '.gitignore',
    '.github/workflows/ci.yml',
    '.gitx',
    'a/.sync.yml', // another project's, below the root
    'a/.SYNC.YML',
    'a/.pantograph.lock',
    '.sync.yml.example',
    '.pantograph.locker',
    '.pantograph-new/file', // a suffix is only a file's
    'git~1.txt',
    'sync~1.yaml',
    '.ＧＩＴ', // full-width letters are other letters to every file system
    '.gi\u0301t',
    '...',
    'a/..b/c',
    'caf\u00e9/~user/x:y.txt',
  ])('%j is not reserved', (path) => {
    expect(reservedSegment(path)).toBeUndefined();
  });
});
