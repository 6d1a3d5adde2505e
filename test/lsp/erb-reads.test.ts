/**
 * The `@configs` reads of a V1 repository's ERB, found by reading the text (src/lsp/erb-reads.ts), for the
 * hover of a `.sync.yml` key config_defaults.yml does not name: the key chains Ruby reads, where, and the
 * limits that keep someone else's repository from costing more than its first megabytes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { configReads, erbReadsOf, MAX_TEMPLATE_BYTES } from '../../src/lsp/erb-reads.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const paths = (text: string) => configReads(text).map((r) => [r.path.join(' > '), r.line]);

describe('configReads', () => {
  it('subscripts, chained, with either quote or a symbol, at their line', () => {
    const text = [
      "<%= @configs['title'] %>",
      '<% if @configs["networking"][\'ip\'] -%>',
      "<% @configs[ 'required' ][key].each do |g| %>",
      '<%= @configs[:namespace] %>',
      "<% x = @configs['profiles'][@configs['selected_profile']] %>",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['title', 1],
      ['networking > ip', 2],
      ['required', 3],
      [':namespace', 4],
      ['profiles', 5],
      ['selected_profile', 5],
    ]);
  });

  it('dig, fetch and the key tests', () => {
    const text = [
      "<% if @configs.dig('extra_facts', 'networking') -%>",
      "<%= @configs.fetch('markup', 'md') %>",
      "<% if @configs.key?('a') || @configs.has_key?('b') || @configs.include?('c') %>",
      "<%= @configs.dig('x')['y'] %>",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['extra_facts > networking', 1],
      ['markup', 2],
      ['a', 3],
      ['b', 3],
      ['c', 3],
      ['x > y', 4],
    ]);
  });

  it('what is no literal key is not a read: computed keys, interpolation, another variable, a method', () => {
    const text = [
      '<%= @configs[key] %>',
      '<%= @configs["#{prefix}_name"] %>',
      "<%= @configs_extra['a'] %>",
      '<% if @configs.nil? %>',
      "<%= @configs['a\\'b'] %>",
    ].join('\n');
    expect(paths(text)).toEqual([["a'b", 5]]);
  });

  it('only in code tags: not in text, a comment, a literal `<%%`, nor after a tag never closed', () => {
    const text = [
      "Set @configs['text'] in .sync.yml",
      "<%# @configs['comment'] %><%- if @configs['trimmed'] -%>",
      "<%%= @configs['literal'] %> <%= @configs['code'] %>",
      "<% x = '%%>' + @configs['after_literal_close'].to_s %>",
      "<%= @configs['unclosed']",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['trimmed', 2],
      ['code', 3],
      ['after_literal_close', 4],
    ]);
  });

  it("not in a tag's Ruby comment or a string's text; in a string's interpolation, yes", () => {
    const text = [
      "<% # was @configs['commented'] %><% x = 1 # @configs['trailing'] %>",
      "<%= 'literal @configs[\\'single\\']' %><%= \"text @configs['double']\" %>",
      "<%= \"#{@configs['interpolated']} and #{\"#{@configs['nested']}\"} \\\"@configs['escaped']\" %>",
      "<% # a comment\n  y = @configs['next_line'] %>",
      "<%= `echo @configs['backtick'] #{@configs['in_backtick']}` %>",
      "<%= { 'k' => @configs['in_hash'] }.fetch('k') %><%= \"#{ { a: 1 }[:a] } @configs['after_braces']\" %>",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['interpolated', 3],
      ['nested', 3],
      ['next_line', 5],
      ['in_backtick', 6],
      ['in_hash', 7],
    ]);
  });

  it('not in the text of percent literals; in their interpolation when they interpolate', () => {
    const text = [
      "<% a = %q(@configs['q'] (nested) @configs['q2']) %><%= %w[@configs['w']] %><%= @configs['after_w'] %>",
      "<%= %Q{#{@configs['interpolated']} @configs['text']} %><%= %(#{@configs['bare']} @configs['bare_text']) %>",
      "<%= %W<a #{@configs['in_W']}> %><%= %i|@configs['i']| %><%= %r{@configs['re']}i %><%= @configs['after_r'] %>",
      "<%= @configs['n'] % 2 %><%= \"%d\" % @configs['modulo'] %><%= x %w[@configs['call_arg']] %>",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['after_w', 1],
      ['interpolated', 2],
      ['bare', 2],
      ['in_W', 3],
      ['after_r', 3],
      ['n', 4],
      ['modulo', 4],
    ]);
  });

  it('not in the text of heredocs; in their interpolation unless the word is single-quoted', () => {
    const text = [
      "<% text = <<~EOS.strip + @configs['same_line']",
      "  @configs['body'] #{@configs['body_code']}",
      '  EOS',
      "x = @configs['after_body'] %>",
      "<% a = <<-'RAW'",
      "@configs['raw'] #{@configs['raw_code']}",
      '    RAW',
      'b = <<EOT + @configs[\'before_two\'] + <<~"TWO"',
      "@configs['one']",
      'EOT',
      "#{@configs['two_code']} @configs['two']",
      'TWO',
      "list << @configs['appended'] %>",
      "<% unclosed = <<~NEVER\n@configs['unclosed'] %><%= @configs['next_tag'] %>",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['same_line', 1],
      ['body_code', 2],
      ['after_body', 4],
      ['before_two', 8],
      ['two_code', 11],
      ['appended', 13],
      ['next_tag', 15],
    ]);
  });

  it('not in regular expressions where a value is expected; a division is code', () => {
    const text = [
      "<% if x =~ /@configs['matched']/ then y = @configs['then'] end %>",
      "<%= s.split(/@configs\\['split'\\]/, 2) %><%= @configs['total'] / @configs['count'] %>",
      "<% case y when /@configs['when']/ then 1 end %><%= (a + b) / 2 / @configs['divided'] %>",
      "<%= x.gsub(/#{@configs['pattern']}/i, '') %><%= @n / 2 + @configs['after_ivar'] %>",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['then', 1],
      ['total', 2],
      ['count', 2],
      ['divided', 3],
      ['pattern', 4],
      ['after_ivar', 4],
    ]);
  });

  it("a character literal or a match global opens no string: `?'`, `$'`", () => {
    const text = [
      "<%= c == ?' ? @configs['char'] : 'x' %>",
      "<%= $' + @configs['global'] %>",
      "<%= a ?'b': @configs['ternary'] %>",
    ].join('\n');
    expect(paths(text)).toEqual([
      ['char', 1],
      ['global', 2],
      ['ternary', 3],
    ]);
  });

  it('a hostile nesting of interpolations costs its length and still finds the reads outside it', () => {
    const deep = `${'"#{'.repeat(50_000)}@configs['deep']${'}"'.repeat(50_000)}`;
    expect(() => configReads(`<%= ${deep} %><%= @configs['after'] %>`)).not.toThrow();
    expect(paths(`<%= ${deep} %><%= @configs['after'] %>`).at(-1)).toEqual(['after', 1]);
  });

  it("a key's quote is not looked for past its tag's `%>`", () => {
    expect(paths("<%= @configs['a %> text'] %>")).toEqual([]);
  });
});

describe('erbReadsOf', () => {
  it('reads each template within the size limit, and counts those it leaves', () => {
    const dir = tempTree({
      'moduleroot/a.erb': "<%= @configs['a'] %>\n",
      'moduleroot/big.erb': `${'x'.repeat(MAX_TEMPLATE_BYTES)}<%= @configs['hidden'] %>\n`,
      'moduleroot/none.erb': 'plain\n',
    });
    const reads = erbReadsOf(dir, ['moduleroot/a.erb', 'moduleroot/big.erb', 'moduleroot/none.erb']);
    expect(reads).toEqual({
      byTemplate: { 'moduleroot/a.erb': [{ path: ['a'], line: 1 }] },
      skipped: 1,
    });
  });

  it('keeps the first 1,000 reads of a template', () => {
    const reads = configReads("<%= @configs['k'] %>\n".repeat(5000));
    expect(reads).toHaveLength(1000);
    expect(reads.at(-1)).toEqual({ path: ['k'], line: 1000 });
  });
});
