/**
 * to_json, to_json_pretty and to_yaml. Expected strings were produced by Ruby 3.1 (`JSON.generate`,
 * `JSON.pretty_generate`, Psych's `to_yaml`), which puppetlabs-stdlib calls.
 */
import { describe, expect, it } from 'vitest';
import { jsonString, toJson, toJsonPretty } from '../../src/epp/functions/serialization/json.js';
import { toYaml } from '../../src/epp/functions/serialization/yaml.js';
import { serializationFunctions } from '../../src/epp/functions/serialization.js';
import { DEFAULT, float, PRegexp, PSensitive, type Value } from '../../src/epp/runtime/values.js';
import { callFunction, errorOf, hash } from './helpers.js';

function call(name: string, ...args: Value[]): Value {
  return callFunction(serializationFunctions, name, args);
}

describe('to_json', () => {
  it('writes compact JSON as Ruby does', () => {
    const data = hash(
      ['a', 1],
      ['b', [1, float(2.5), undefined, true]],
      ['c', hash()],
      ['d', []],
      ['e', 'q"\\/\n\t\u0001\u007f é\u2028'],
      ['f', float(1e20)],
      ['g', float(-0)],
    );
    expect(call('to_json', data)).toBe(
      '{"a":1,"b":[1,2.5,null,true],"c":{},"d":[],"e":"q\\"\\\\/\\n\\t\\u0001\u007f é\u2028","f":1.0e+20,"g":-0.0}',
    );
  });

  it('stringifies keys and values that are not data', () => {
    expect(toJson(hash([1, 2], [undefined, 3]))).toBe('{"1":2,"":3}');
    expect(toJson([DEFAULT, new PRegexp('ab'), new PSensitive('x')])).toBe(
      '["default","(?-mix:ab)","Sensitive [value redacted]"]',
    );
    expect(toJson('x')).toBe('"x"');
    expect(toJson(undefined)).toBe('null');
    expect(toJson(12345678901234567890n)).toBe('12345678901234567890');
    expect(jsonString('\u001f\b\f\r')).toBe('"\\u001f\\b\\f\\r"');
  });

  it('refuses NaN and Infinity', () => {
    expect(errorOf(() => toJson(float(Number.NaN))).code).toBe('EPP_CONVERSION');
    expect(errorOf(() => toJson([float(Number.POSITIVE_INFINITY)])).code).toBe('EPP_CONVERSION');
  });

  it('writes Integers exactly and Floats with a fraction', () => {
    expect(toJson([1, float(1), 9007199254740993n])).toBe('[1,1.0,9007199254740993]');
    expect(toJson(hash([1, 'i'], [float(1), 'f'], [9007199254740993n, 'b']))).toBe(
      '{"1":"i","1.0":"f","9007199254740993":"b"}',
    );
    expect(call('to_json', [float(-0), -0])).toBe('[-0.0,0]');
    expect(call('to_json_pretty', [float(2.5), 2])).toBe('[\n  2.5,\n  2\n]\n');
  });
});

describe('to_json_pretty', () => {
  it('writes JSON.pretty_generate output plus a newline, with json 2.6 empty collections', () => {
    const data = hash(
      ['a', 1],
      ['b', [1, float(2.5), undefined, true]],
      ['c', hash()],
      ['d', []],
      ['e', hash(['x', [[]]])],
    );
    expect(call('to_json_pretty', data)).toBe(
      '{\n  "a": 1,\n  "b": [\n    1,\n    2.5,\n    null,\n    true\n  ],\n  "c": {\n  },\n  "d": [\n\n  ],\n  "e": {\n    "x": [\n      [\n\n      ]\n    ]\n  }\n}\n',
    );
    expect(call('to_json_pretty', [])).toBe('[\n\n]\n');
    expect(call('to_json_pretty', hash())).toBe('{\n}\n');
  });

  it('drops top-level undef values with skip_undef', () => {
    expect(call('to_json_pretty', hash(['a', undefined], ['b', hash(['c', undefined])]), true)).toBe(
      '{\n  "b": {\n    "c": null\n  }\n}\n',
    );
    expect(call('to_json_pretty', [1, undefined], true)).toBe('[\n  1\n]\n');
    expect(call('to_json_pretty', [1, undefined], false)).toBe('[\n  1,\n  null\n]\n');
  });

  it('takes layout options', () => {
    expect(
      call('to_json_pretty', hash(['a', hash(['b', 1])]), undefined, hash(['indent', '\t'], ['space', ''])),
    ).toBe('{\n\t"a":{\n\t\t"b":1\n\t}\n}\n');
    expect(toJsonPretty([1], { arrayNl: '' })).toBe('[  1]');
  });

  it('accepts only an array or a hash', () => {
    const e = errorOf(() => call('to_json_pretty', 'x'));
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.message).toBe(
      "'stdlib::to_json_pretty' parameter 'data' expects a value of type Hash or Array, got String",
    );
    expect(errorOf(() => call('to_json_pretty', [], 'yes')).code).toBe('EPP_ARGUMENTS');
    expect(errorOf(() => call('to_json_pretty', [], false, hash(['bogus', 'x']))).code).toBe('EPP_ARGUMENTS');
  });
});

describe('to_yaml', () => {
  it('writes a document as Psych does, quoting what YAML would read as something else', () => {
    const data = hash(
      ['name', 'x'],
      ['version', '1.0'],
      ['enabled', 'yes'],
      ['count', 3],
      ['ratio', float(0.5)],
      ['empty', ''],
      ['nothing', undefined],
      ['list', ['a', 'on', '1', hash(['k', 'v'], ['nested', [1, [2]]])]],
      ['map', hash(['deep', hash(['x', '#comment'], ['y', 'a: b'], ['z', 'multi\nline\n'])])],
      ['long', 'lorem ipsum '.repeat(10).trim()],
      ['q', "it's"],
      ['dq', 'say "hi"'],
      ['tab', 'a\tb'],
      [':sym', ':sym'],
      ['date', '2020-01-01'],
      ['octal', '0755'],
      ['nine', '09'],
      ['float', '1e3'],
      ['tilde', '~'],
    );
    expect(call('to_yaml', data)).toBe(
      [
        '---',
        'name: x',
        "version: '1.0'",
        "enabled: 'yes'",
        'count: 3',
        'ratio: 0.5',
        "empty: ''",
        'nothing:',
        'list:',
        '- a',
        "- 'on'",
        "- '1'",
        '- k: v',
        '  nested:',
        '  - 1',
        '  - - 2',
        'map:',
        '  deep:',
        '    x: "#comment"',
        `    "y": 'a: b'`,
        '    z: |',
        '      multi',
        '      line',
        'long: lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem',
        '  ipsum lorem ipsum lorem ipsum lorem ipsum',
        "q: it's",
        'dq: say "hi"',
        'tab: "a\\tb"',
        '":sym": ":sym"',
        "date: '2020-01-01'",
        "octal: '0755'",
        "nine: '09'",
        'float: 1e3',
        'tilde: "~"',
        '',
      ].join('\n'),
    );
  });

  it('writes scalars and empty collections inline', () => {
    expect(toYaml('plain')).toBe('--- plain\n');
    expect(toYaml(float(1.5))).toBe('--- 1.5\n');
    expect(toYaml(1)).toBe('--- 1\n');
    expect(toYaml(undefined)).toBe('---\n');
    expect(toYaml(true)).toBe('--- true\n');
    expect(toYaml([])).toBe('--- []\n');
    expect(toYaml(hash())).toBe('--- {}\n');
    expect(toYaml(float(1e20))).toBe('--- 1.0e+20\n');
    expect(toYaml(DEFAULT)).toBe('--- :default\n');
    expect(toYaml([1, float(1), 9007199254740993n, float(Number.NaN), float(Number.NEGATIVE_INFINITY)])).toBe(
      '---\n- 1\n- 1.0\n- 9007199254740993\n- .nan\n- -.inf\n',
    );
    expect(toYaml(hash([float(0.5), 1]))).toBe('---\n0.5: 1\n');
    expect(toYaml('a\n')).toBe("--- 'a\n\n  '\n");
    expect(toYaml('a\nb')).toBe('--- |-\n  a\n  b\n');
  });

  it('nests sequences and mappings as libyaml does', () => {
    expect(toYaml([[1, [2, 3]], hash(['x', hash()])])).toBe('---\n- - 1\n  - - 2\n    - 3\n- x: {}\n');
    expect(
      toYaml(hash(['a', []], ['b', hash()], ['c', [hash(['d', []])]], [5, undefined], [undefined, 1])),
    ).toBe("---\na: []\nb: {}\nc:\n- d: []\n5:\n! '': 1\n");
  });

  it('ends the document with ... after a kept-newlines block', () => {
    expect(toYaml(['a\nb\n\n'])).toBe('---\n- |+\n  a\n  b\n\n...\n');
  });

  it('quotes single-letter y/n and escapes characters libyaml cannot print', () => {
    expect(toYaml(['y', 'n', 'Y', 'emoji 😀', 'a\u0085b', '\u0001'])).toBe(
      '---\n- "y"\n- "n"\n- Y\n- "emoji \\U0001F600"\n- "a\\Nb"\n- "\\x01"\n',
    );
  });

  it('folds long quoted strings at 80 columns', () => {
    const words = `${'word '.repeat(40).trim()} "q" \t`;
    expect(toYaml(hash(['key', words]))).toBe(
      '---\nkey: "word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word word\n  word word word word word word word word \\"q\\" \\t"\n',
    );
    expect(toYaml('word '.repeat(40))).toBe(
      "--- 'word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word word\n  word word word word word word word word '\n",
    );
  });

  it('writes long and multi-line keys as complex keys', () => {
    expect(toYaml(hash(['multi\nline', 5], ['k'.repeat(130), 6]))).toBe(
      `---\n? |-\n  multi\n  line\n: 5\n? ${'k'.repeat(130)}\n: 6\n`,
    );
    expect(toYaml(hash(['é'.repeat(90), 'v']))).toBe(`---\n? ${'é'.repeat(90)}\n: v\n`);
  });

  it('writes the merge key << as a tagged string, and collections after a complex key on its line', () => {
    expect(toYaml(hash(['multi\nline', hash(['a', 1], ['b', [2]])], ['k', '<<']))).toBe(
      "---\n? |-\n  multi\n  line\n: a: 1\n  b:\n  - 2\nk: !!str '<<'\n",
    );
  });

  it('takes the indentation option', () => {
    const data = hash(
      ['a', [hash(['b', 1], ['c', [2, [3, 4]]])]],
      ['m', hash(['n', hash(['o', 'x'])], ['lit', 'a\nb'])],
      ['l', 'word '.repeat(20)],
    );
    expect(call('to_yaml', data, hash(['indentation', 4]))).toBe(
      [
        '---',
        'a:',
        '-   b: 1',
        '    c:',
        '    - 2',
        '    -   - 3',
        '        - 4',
        'm:',
        '    "n":',
        '        o: x',
        '    lit: |-',
        '        a',
        '        b',
        "l: 'word word word word word word word word word word word word word word word word",
        "    word word word word '",
        '',
      ].join('\n'),
    );
    expect(call('to_yaml', hash(['l', 'word '.repeat(20)]), hash(['line_width', -1]))).toBe(
      `---\nl: '${'word '.repeat(20)}'\n`,
    );
  });

  it('folds long strings with the line_width option, as Psych asks for', () => {
    expect(toYaml(['a b c d e f g h i j k'], { lineWidth: 10 })).toBe(
      '---\n- >-\n  a b c d e\n  f g h i j\n  k\n',
    );
    expect(
      toYaml(['p\n\nq r s t u v w x y z aa bb cc dd ee', ' lead x x x x x x x x x x x x x x'], {
        lineWidth: 10,
      }),
    ).toBe(
      '---\n- |-\n  p\n\n  q r s t u v w x y z aa bb cc dd ee\n- >2-\n   lead x x\n  x x x x x\n  x x x x x\n  x x\n',
    );
    expect(toYaml(hash(['l', `${'word '.repeat(20)}`]), { lineWidth: 30 })).toBe(
      '---\nl: "word word word word word word\n  word word word word word word\n  word word word word word word\n  word word "\n',
    );
  });

  it('rejects options it does not know', () => {
    expect(call('to_yaml', 'x', hash())).toBe('--- x\n');
    expect(errorOf(() => call('to_yaml', 'x', hash(['canonical', true]))).code).toBe('EPP_ARGUMENTS');
    expect(errorOf(() => call('to_yaml', 'x', hash(['line_width', -2]))).message).toBe(
      'Invalid line_width -2, must be non-negative or -1 for unlimited.',
    );
    expect(errorOf(() => call('to_yaml', 'x', 'indentation')).code).toBe('EPP_ARGUMENTS');
  });
});
