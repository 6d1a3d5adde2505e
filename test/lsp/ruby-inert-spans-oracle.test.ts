/**
 * The scan of src/lsp/ruby-inert-spans.ts against Ruby's own lexer (Ripper, run by the `ruby` the V1 path
 * uses): in every code tag of the bundled pdk-templates and modulesync templates, and in fragments built
 * to trip a lexical scan (percent literals, heredocs, regular expressions against divisions), the
 * `@configs` Ruby reads as a variable are exactly those the scan leaves as code.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { erbTags } from '../../src/engine/v1/erb-tags.js';
import { rubyInertSpans } from '../../src/lsp/ruby-inert-spans.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Every `.erb` file below `dir`. */
function erbFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.erb'))
    .map((f) => join(dir, f));
}

/** The code of each closed, non-comment tag of an ERB text that mentions `@configs`. */
function codeFragments(text: string): string[] {
  const fragments: string[] = [];
  for (const tag of erbTags(text)) {
    if (tag.comment || !tag.closed) continue;
    const code = text.slice(tag.contentStart, tag.contentEnd);
    if (code.includes('@configs')) fragments.push(code);
  }
  return fragments;
}

/** The offsets of `@configs` our scan leaves as code. */
function scannedReads(code: string): number[] {
  const inert = rubyInertSpans(code);
  const reads: number[] = [];
  for (let at = code.indexOf('@configs'); at >= 0; at = code.indexOf('@configs', at + 1)) {
    if (/\w/.test(code[at + 8] ?? '')) continue;
    if (!inert.some(([start, end]) => start <= at && at < end)) reads.push(at);
  }
  return reads;
}

/** Ripper's answer for each fragment: the offsets of its `@configs` instance-variable tokens. */
function rubyReads(fragments: readonly string[]): number[][] {
  const script = `
    require 'json'; require 'ripper'
    out = JSON.parse($stdin.read).map do |code|
      starts = [0]; code.each_line { |l| starts << starts.last + l.length }
      Ripper.lex(code).select { |(_pos, type, tok)| type == :on_ivar && tok == '@configs' }.map do |((line, col))|
        starts[line - 1] + code.lines[line - 1].byteslice(0, col).length
      end
    end
    print JSON.generate(out)`;
  const ruby = spawnSync('ruby', ['-e', script], { input: JSON.stringify(fragments), encoding: 'utf8' });
  if (ruby.status !== 0) throw new Error(`ruby failed: ${ruby.stderr}`);
  return JSON.parse(ruby.stdout) as number[][];
}

const TRICKY = [
  "a = %q(@configs['q'] (nested) @configs['q2']) + @configs['after']",
  "%w[@configs['w']].each { |x| @configs['block'] }",
  "%Q{#{@configs['interpolated']} @configs['text']} + %(#{@configs['bare']} @configs['bare_text'])",
  "%W<a #{@configs['in_W']}> + %i|@configs['i']|.to_s + %r{@configs['re']}i.to_s + @configs['after_r']",
  "@configs['n'] % 2 + \"%d\" % @configs['modulo']",
  "puts %w[@configs['call_arg']]",
  "text = <<~EOS.strip + @configs['same_line']\n  @configs['body'] #{@configs['body_code']}\n  EOS\nx = @configs['after_body']",
  "a = <<-'RAW'\n@configs['raw'] #{@configs['raw_code']}\n    RAW\nb = @configs['after_raw']",
  "b = <<EOT + @configs['between'] + <<~\"TWO\"\n@configs['one']\nEOT\n#{@configs['two_code']} @configs['two']\nTWO\nlist = []; list << @configs['appended']",
  "if x =~ /@configs['matched']/ then y = @configs['then'] end",
  "s.split(/@configs\\['split'\\]/, 2) + [@configs['total'] / @configs['count']]",
  "case y when /@configs['when']/ then 1 end + (a + b) / 2 / @configs['divided']",
  "x.gsub(/#{@configs['pattern']}/i, '') + (@n / 2 + @configs['after_ivar']).to_s",
  "c == ?' ? @configs['char'] : 'x'",
  "$' + @configs['global']",
  "a = true; a ?'b': @configs['ternary']",
  "x = 1 # @configs['comment']\n@configs['next_line']",
  "`echo @configs['backtick'] #{@configs['in_backtick']}`",
  ":\"@configs['symbol'] #{@configs['in_symbol']}\"",
];

describe('the inert spans of Ruby code, against Ruby', () => {
  it("every code tag of the bundled V1 templates: the `@configs` Ruby reads are the scan's", () => {
    const files = [
      ...erbFiles(join(FIXTURES, 'pdk-templates-3.5.1')),
      ...erbFiles(join(FIXTURES, 'modulesync')),
    ];
    const fragments = files.flatMap((f) => codeFragments(readFileSync(f, 'utf8')));
    expect(fragments.length).toBeGreaterThan(50);
    const expected = rubyReads(fragments);
    const mismatches = fragments
      .map((code, i) => ({ code, ruby: expected[i], scan: scannedReads(code) }))
      .filter(({ ruby, scan }) => JSON.stringify(ruby) !== JSON.stringify(scan));
    expect(mismatches).toEqual([]);
  });

  it('fragments made to trip a lexical scan: literals, heredocs, regular expressions, divisions', () => {
    const expected = rubyReads(TRICKY);
    const actual = TRICKY.map(scannedReads);
    expect(
      TRICKY.map((code, i) => ({ code, scan: actual[i] })).filter(
        (_, i) => JSON.stringify(actual[i]) !== JSON.stringify(expected[i]),
      ),
    ).toEqual([]);
    // The fragments do have reads in literals that Ruby does not count.
    const mentions = TRICKY.map((code) => code.split('@configs').length - 1);
    expect(actual.flat().length).toBeLessThan(mentions.reduce((a, b) => a + b, 0));
  });
});
