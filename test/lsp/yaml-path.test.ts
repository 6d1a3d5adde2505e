/**
 * The cursor's place in a YAML text by indentation (src/lsp/yaml-path.ts), as `.sync.yml` completion and
 * hover use it, on text that is often no complete YAML document while the user types.
 */
import { describe, expect, it } from 'vitest';
import { yamlPlace } from '../../src/lsp/yaml-path.js';

const TEXT = [
  'pdk_template:', // 0
  '  version: 2', // 1
  '  templates:', // 2
  '  - ntp', // 3
  '  - mo', // 4
  'ntp:', // 5
  '  servers: [a]', // 6
  '  ', // 7
  'pdk_template_again:', // 8
  '  template_sources:', // 9
  '    - type: git', // 10
  '      loc', // 11
].join('\n');

describe('yamlPlace', () => {
  it('finds the items of a one-line flow list as those of a block list', () => {
    const text = 'pdk_template:\n  templates: [ntp, mo]\n  delete: []\n';
    expect(yamlPlace(text, 1, 20)).toMatchObject({
      parents: ['pdk_template', 'templates'],
      listItem: true,
      item: 'mo',
    });
    const at = text.indexOf('mo');
    expect(yamlPlace(text, 1, 19)).toMatchObject({ start: at, end: at + 2 });
    expect(yamlPlace(text, 2, 11)).toMatchObject({
      parents: ['pdk_template', 'delete'],
      listItem: true,
      item: undefined,
    });
    // After the list, or on the key: the key's place, as before.
    expect(yamlPlace(text, 1, 23)).toMatchObject({ parents: ['pdk_template'], listItem: false });
    expect(yamlPlace(text, 1, 4)).toMatchObject({ parents: ['pdk_template'], key: 'templates' });
  });

  it('finds list items under their key, even at the key’s own indentation', () => {
    expect(yamlPlace(TEXT, 4, 5)).toMatchObject({
      parents: ['pdk_template', 'templates'],
      listItem: true,
      item: 'mo',
    });
  });

  it('finds the key under the cursor and the keys above it', () => {
    expect(yamlPlace(TEXT, 6, 4)).toMatchObject({ parents: ['ntp'], key: 'servers', listItem: false });
    expect(yamlPlace(TEXT, 5, 1)).toMatchObject({ parents: [], key: 'ntp' });
    expect(yamlPlace(TEXT, 1, 3)).toMatchObject({ parents: ['pdk_template'], key: 'version' });
  });

  it('places a blank line by the cursor’s column, and a key being typed without its colon', () => {
    expect(yamlPlace(TEXT, 7, 2)).toMatchObject({ parents: ['ntp'], key: undefined });
    expect(yamlPlace(TEXT, 11, 9)).toMatchObject({
      parents: ['pdk_template_again', 'template_sources'],
      key: 'loc',
    });
  });

  it('gives the span of the word', () => {
    const place = yamlPlace(TEXT, 6, 4);
    expect(TEXT.slice(place.start, place.end)).toBe('servers');
  });

  it('is not on a key when the cursor is on the value', () => {
    // `servers: [a]`: an item of the setting's list, not a place for ntp's keys.
    expect(yamlPlace(TEXT, 6, 13)).toMatchObject({
      parents: ['ntp', 'servers'],
      key: undefined,
      listItem: true,
      item: 'a',
    });
  });
});

describe('yamlPlace on quoted keys', () => {
  it("takes a quoted key's colon after its closing quote (msync's `':test':`)", () => {
    const text = ['Gemfile:', '  optional:', "    ':test':", "      - gem: 'hiera'"].join('\n');
    expect(yamlPlace(text, 2, 6)).toMatchObject({ parents: ['Gemfile', 'optional'], key: ':test' });
    expect(yamlPlace(text, 3, 9)).toMatchObject({ parents: ['Gemfile', 'optional', ':test'] });
  });

  it('reads a flow list or mapping that runs over lines by its nodes, not by indentation (session 34)', () => {
    const text = [
      'pdk_template:', // 0
      '  templates: [motd,', // 1
      '    ntp]', // 2
      'ntp: {servers: [a,', // 3
      '    b],', // 4
      '  port: 123}', // 5
      'rubocop:', // 6
      '  pe', // 7
    ].join('\n');
    const offset = (line: number, character: number) =>
      text
        .split('\n')
        .slice(0, line)
        .reduce((n, l) => n + l.length + 1, 0) + character;
    // The list's second line: its item, not a key `ntp]` of pdk_template's.
    expect(yamlPlace(text, 2, 5)).toEqual({
      parents: ['pdk_template', 'templates'],
      key: undefined,
      listItem: true,
      item: 'ntp',
      start: offset(2, 4),
      end: offset(2, 7),
    });
    // After its `]`: the place after templates' value, as on a one-line list.
    expect(yamlPlace(text, 2, 8)).toMatchObject({
      parents: ['pdk_template'],
      key: undefined,
      listItem: false,
    });
    // A flow mapping's keys on its first line and on a line of its own; a list in it.
    expect(yamlPlace(text, 3, 7)).toEqual({
      parents: ['ntp'],
      key: 'servers',
      listItem: false,
      item: undefined,
      start: offset(3, 6),
      end: offset(3, 13),
    });
    expect(yamlPlace(text, 5, 3)).toMatchObject({ parents: ['ntp'], key: 'port', listItem: false });
    expect(yamlPlace(text, 4, 5)).toMatchObject({ parents: ['ntp', 'servers'], listItem: true, item: 'b' });
    // A value: no key there.
    expect(yamlPlace(text, 5, 9)).toMatchObject({ parents: ['ntp'], key: undefined });
    // Block YAML after them is read by indentation, as before.
    expect(yamlPlace(text, 7, 4)).toMatchObject({ parents: ['rubocop'], key: 'pe' });
  });

  it('finds an item of a flow list being typed over lines, with no `]` yet', () => {
    const text = 'pdk_template:\n  templates: [motd,\n    nt\n';
    expect(yamlPlace(text, 2, 6)).toMatchObject({
      parents: ['pdk_template', 'templates'],
      listItem: true,
      item: 'nt',
    });
  });
});
