/**
 * Strict JSON syntax checking with error offsets. The yaml library accepts more than JSON (comments,
 * trailing commas, bare words) and `JSON.parse` does not always say where it failed, so JSON files
 * (template.json, template_schema.json) are checked with this small recursive scanner first.
 */

/** The first syntax error of a JSON text, with its offset, or undefined when the text is valid JSON. */
export function findJsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (message: string): never => {
    throw { offset: i, message };
  };
  const expect = (ch: string) => {
    if (text[i] !== ch)
      fail(i >= text.length ? `expected '${ch}', found the end of the file` : `expected '${ch}'`);
    i++;
  };
  const string = () => {
    expect('"');
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c === '"') break;
      if (c! < ' ') fail('control character in a string');
      if (c === '\\') {
        i++;
        if (text[i] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail('bad \\u escape');
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail('bad escape');
      }
      i++;
    }
    i++;
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') fail('expected a property name in double quotes');
      string();
      ws();
      expect(':');
      value();
      ws();
      if (text[i] !== ',') break;
      i++;
    }
    expect('}');
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      if (text[i] !== ',') break;
      i++;
    }
    expect(']');
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') object();
    else if (c === '[') array();
    else if (c === '"') string();
    else {
      const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)/.exec(
        text.slice(i, i + 400),
      );
      if (!m) fail(c === undefined ? 'unexpected end of the file' : `unexpected '${c}'`);
      else i += m[0].length;
    }
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    ws();
    if (i < text.length) fail(`unexpected '${text[i]}' after the JSON value`);
    return undefined;
  } catch (e) {
    return e as { offset: number; message: string };
  }
}
