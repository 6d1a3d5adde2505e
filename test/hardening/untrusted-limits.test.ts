/**
 * Issue 11, item 5: a template or hook from a source that is not trusted must not hang or crash the tool.
 * It runs in a worker with a time and a memory limit; what a regular expression or an allocation does
 * cannot escape them, and each attack ends in a clear error naming the template and the file or hook.
 * (The limits are lowered through the environment here, so that the attacks end quickly.)
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const REGEX_BOMB = '"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" =~ /^(a+)+$/';
const DOUBLING = 'Integer[1, 40].reduce([1]) |$m, $i| { $m + $m }';
/**
 * What stops the doubling: the element cap, always. In the worker it is a fifth of the 96 MB heap
 * (2,516,582 elements, src/epp/runtime/size-limits.ts), so the step to 4,194,304 elements is refused while
 * the 2,097,152-element array and the garbage before it fill a third of the heap. (With the cap of 10
 * million, the 8,388,608-element step filled the heap first in some runs, depending on when V8 collected.)
 */
const DOUBLING_STOPPED = 'an Array of 4,194,304 elements is larger than a template may build (2,516,582)';

function untrusted(files: Record<string, string>): string {
  const repo = tempTree({
    't/template.json': JSON.stringify({ name: 't', always_apply: true, default_settings: { n: 1 } }),
    't/files/fine.txt.epp': 'fine <%= $n %>\n',
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`t/${k}`, v])),
  });
  return writeTree(tempDir(), {
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n      trusted: false\n`,
  });
}

/**
 * `status` of the project. The attacks on time run under a 2 s limit; those on memory under 20 s, so that
 * a busy machine (CI) reaches the memory limit before the time limit.
 */
function status(root: string, seconds = 2) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [bin, 'status'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      NO_COLOR: '1',
      PANTOGRAPH_UNTRUSTED_TIME_LIMIT: String(seconds),
      PANTOGRAPH_UNTRUSTED_MEMORY_LIMIT: '96',
    },
  });
  return { ...r, seconds: (performance.now() - started) / 1000 };
}

describe('templates of an untrusted source, attacked', () => {
  it.each([
    // [attack, template files, error code, where it points, words of the message]
    [
      'a catastrophic regular expression in a template',
      { 'files/x.txt.epp': `<%= ${REGEX_BOMB} %>` },
      'EPP_TIME_LIMIT',
      't/files/x.txt.epp:1:1',
      "template 't' (files/x.txt.epp): ran longer than 2 s",
    ],
    [
      'the same in a .pp hook',
      { 'hooks/after_default_settings.pp': `if ${REGEX_BOMB} { $state } else { $state }` },
      'EPP_TIME_LIMIT',
      't/hooks/after_default_settings.pp:1:1',
      "template 't' (hook after_default_settings): ran longer than 2 s",
    ],
    [
      'nested loops over huge ranges',
      { 'files/x.txt.epp': '<% Integer[1, 9999999].each |$i| { Integer[1, 9999999].each |$j| { } } %>' },
      'EPP_TIME_LIMIT',
      't/files/x.txt.epp:1:1',
      "template 't' (files/x.txt.epp): ran longer than 2 s",
    ],
    [
      'an array doubled 40 times in a template',
      { 'files/x.txt.epp': `<%= ${DOUBLING}.length %>` },
      'EPP_MEMORY_LIMIT',
      't/files/x.txt.epp:1:',
      DOUBLING_STOPPED,
    ],
    [
      'an array doubled 40 times in a hook',
      { 'hooks/after_default_settings.pp': `$x = ${DOUBLING}\n$state` },
      'HOOK_FAILED',
      't/hooks/after_default_settings.pp:1:',
      DOUBLING_STOPPED,
    ],
    [
      'arrays that share elements, flattened (security review 20: V8 aborted the process)',
      {
        'files/x.txt.epp':
          '<% $a = [1,2,3,4,5,6,7,8,9,10]\n   $b = $a.map |$x| { $a }.flatten\n   $c = $b.map |$x| { $b }.flatten\n   $d = $c.map |$x| { $c }.flatten -%>\n<%= $d.length %>',
      },
      'EPP_MEMORY_LIMIT',
      't/files/x.txt.epp:4:27', // the `.` of `.flatten`
      'the flattened Array would have more than 2,516,582 elements, more than a template may build',
    ],
    [
      'a hook whose state shares an array doubled 30 times (copied path by path, it would not end)',
      {
        'hooks/after_default_settings.pp':
          '$x = Integer[1, 30].reduce([1]) |$m, $i| { [$m, $m] }\n$state + { "settings" => $state["settings"] + { "n" => $x } }',
      },
      'HOOK_FAILED',
      't/hooks/after_default_settings.pp:1:1',
      "the hook's state would have more than 2,516,582 elements, more than a template may build",
    ],
    [
      'a string doubled until it is too long',
      { 'files/x.txt.epp': '<%= Integer[1, 40].reduce("ab") |$m, $i| { "${m}${m}" } %>' },
      'EPP_MEMORY_LIMIT',
      't/files/x.txt.epp:1:',
      'the template built a value too large to hold',
    ],
  ])('%s: a clear error, in bounded time, the tool alive', (_what, files, code, where, words) => {
    const r = status(untrusted(files), code === 'EPP_TIME_LIMIT' ? 2 : 20);
    expect(r.status).toBe(1);
    expect(r.signal).toBeNull();
    expect(r.stderr).toContain(`[${code}]`);
    expect(r.stderr).toContain(where);
    if (typeof words === 'string') expect(r.stderr).toContain(words);
    else expect(r.stderr).toMatch(words);
    expect(r.stderr).not.toMatch(/FATAL|invalid size|heap out of memory/i);
    expect(r.seconds).toBeLessThan(45);
  });

  it('a heap-hungry hash is stopped by the memory limit of the worker', () => {
    const r = status(
      untrusted({
        'files/x.txt.epp':
          '<%= Integer[1, 3000000].reduce({}) |$m, $i| { $m + { "key-${i}-padding-padding-padding" => [$i, $i, $i] } }.length %>',
      }),
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/\[EPP_(MEMORY|TIME)_LIMIT\]/);
  });

  it('an untrusted template that behaves renders as a trusted one does', () => {
    const root = untrusted({});
    const r = spawnSync(process.execPath, [bin, 'render'], { cwd: root, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('fine 1');
  });
});
