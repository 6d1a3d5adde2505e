/**
 * What to do about a YAML syntax error, by the `yaml` package's error code: its messages say what is
 * wrong in the parser's words (`BLOCK_AS_IMPLICIT_KEY`: "Nested mappings are not allowed in compact
 * mappings") but not how to write it instead, and every positioned error should say that.
 */
const HINTS: Readonly<Record<string, string>> = {
  TAB_AS_INDENT: 'indent with spaces: YAML does not allow tabs in indentation',
  DUPLICATE_KEY:
    'this key is already set above, in the same mapping: keep one of the two (merge their contents into it)',
  BAD_INDENT: 'line up the keys of one mapping (or the items of one list) at the same column',
  BLOCK_AS_IMPLICIT_KEY:
    'a `key: value` inside a value goes on its own line, indented under its key; or quote the value if it is text',
  MULTILINE_IMPLICIT_KEY: 'a key is one line: check the indentation of this line and the one above it',
  BAD_SCALAR_START: 'quote the value: plain text cannot start with @ or `',
  UNEXPECTED_TOKEN:
    'check the indentation here and on the line above: a list (`- item`) and keys (`key: value`) cannot share one level',
  UNEXPECTED_FLOW_KEY: 'quote the value: a plain value cannot hold `: ` or ` #` here',
  MULTIPLE_DOCS:
    'keep one document: delete this `---` line and what follows it, or move that into the first (Puppet and PDK read the first alone and ignore the rest without a word)',
};

/**
 * A `yaml` error's message as a user reads it: its first line, except where it speaks to a programmer
 * (`MULTIPLE_DOCS`: "please use YAML.parseAllDocuments()").
 */
export function yamlErrorMessage(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'a second YAML document begins here: the file must hold one';
  return message.split('\n')[0] ?? message;
}

const DEFAULT_HINT = 'check this line and the one above it: indentation, quotes and brackets';

/**
 * `MISSING_CHAR` is the package's code for a dozen different mistakes; its message says which. A line one
 * space short under a list item (`- gem: x` then ` version: 1`) is the commonest in a `.sync.yml`.
 */
const MISSING_CHAR_HINTS: readonly (readonly [RegExp, string])[] = [
  [
    /^Missing closing .?quote/,
    'close the quoted text with the quote that opened it, on this line or a later one',
  ],
  [
    /^Sequence item without - indicator/,
    "this line is inside a list but is no item of it: line a key up with the item's first key (the column after `- `), or start a new item with `- `",
  ],
  [
    // A key being typed (`  se`) is one too.
    /^Implicit map keys need to be followed by map values/,
    "end the key with `:` (`key: value`, a space after the colon); a value alone goes on its key's line, or in a list as `- value`",
  ],
  [
    /^Missing space after :/,
    'put a space after the `:` (`key: value`), or quote the text if it is one value',
  ],
  [/^Missing , /, 'separate the items of `[...]` or `{...}` with `, `, and a key from its value with `: `'],
  [/^Comments must be separated/, 'put a space before `#`, or quote the value if the `#` belongs to it'],
  [/^Tags and anchors must be separated/, 'put a space after the `!tag` or `&anchor`'],
];

/** A `[` or `{` left open: the parser reports it where the document goes on, as an indentation error. */
const UNCLOSED = /^Flow (sequence|map) in block collection/;

/** The hint for a `yaml` error (a general one for codes not listed). */
export function yamlErrorHint(code: string, message: string): string {
  const unclosed = UNCLOSED.exec(message);
  if (unclosed) {
    const [open, close] = unclosed[1] === 'map' ? ['{', '}'] : ['[', ']'];
    return `a \`${open}\` above is not closed: end it with \`${close}\` (a list written over several lines is indented more than its key)`;
  }
  if (code === 'MISSING_CHAR') return MISSING_CHAR_HINTS.find(([m]) => m.test(message))?.[1] ?? DEFAULT_HINT;
  return HINTS[code] ?? DEFAULT_HINT;
}

export const MERGE_CONFLICT_HINT =
  'keep what you want of both sides between `<<<<<<<` and `>>>>>>>`, delete the marker lines (`<<<<<<<`, `=======`, `>>>>>>>`), then run the command again';

/** The offset of the first `<<<<<<< ` line when the text also has a `>>>>>>> ` one, else undefined. */
export function mergeConflictAt(text: string): number | undefined {
  const start = /^<{7}(?: |$)/m.exec(text);
  return start && /^>{7}(?: |$)/m.test(text) ? start.index : undefined;
}
