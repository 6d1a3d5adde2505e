/**
 * Fuzz test: bad input only ever produces a typed EppError, never a crash (TypeError, RangeError, a thrown
 * non-error, an escaped break/next signal), a non-string result, or a hang. And the two tiers of rendering
 * agree: every template is rendered three times, which interprets it the first two times and runs its
 * compiled code the third (see src/epp/interpreter/); output, warnings and errors (code, message,
 * position) must be the same.
 *
 * Three generators, each bounded in time and in cases: random token soup from EPP and Puppet fragments,
 * mutations (delete, insert, swap, duplicate chunks) of the shared conformance templates, and a small
 * grammar of mostly valid templates, so that the evaluator and the functions are reached too. Each
 * template is rendered with small random values, strict on or off, sometimes with other delimiters.
 *
 * Reproducible: the seed is printed; `FUZZ_SEED=<n>` replays a run. `FUZZ_MS` (total time budget,
 * default 8000) and `FUZZ_CASES` (total case cap, default 90000) make longer runs possible.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { EppError } from '../../src/epp/errors.js';
import { parseEpp, renderEpp, reportSyntaxWarnings } from '../../src/epp/index.js';
import { mulberry32, type Rng } from '../helpers/random.js';

const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED) >>> 0
  : (Date.now() ^ (process.pid << 16)) >>> 0;
const TOTAL_MS = Number(process.env.FUZZ_MS ?? 8000);
const TOTAL_CASES = Number(process.env.FUZZ_CASES ?? 90_000);
/** A single case slower than this is reported as a hang. */
const CASE_LIMIT_MS = 5000; // generous: a loaded CI machine must not turn a slow case into a failure
/**
 * Each render's time limit (`timeLimitMs`), as a library user bounds a template they did not write: a
 * mutation can make a legitimate but long evaluation (`{...}685477580.each`: ten million iterations, 15-35 s,
 * before the iteration limit stops it) that must end with the engine's typed error, well within the case's
 * limit for both renders. Parsing is not under it: a parser that hangs is still a failure.
 */
const RENDER_LIMIT_MS = 1500;
const MAX_REPORTED = 5;

// ---------------------------------------------------------------------------------------------------------
// Random numbers

const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const between = (rng: Rng, lo: number, hi: number) => lo + int(rng, hi - lo + 1);
const chance = (rng: Rng, p: number) => rng() < p;
function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[int(rng, items.length)] as T;
}

// ---------------------------------------------------------------------------------------------------------
// Values

const VALUE_KEYS = ['x', 'y', 's', 'n', 'f', 'a', 'h', 'b', 'u'];
// biome-ignore format: a table reads better packed
const STRINGS = [
  '', 'a', 'Hello', 'x y', '10', '0x1F', '1.5', 'true', 'ümlaut', '%s', '<%= 1 %>', '\n', `\${x}`,
];
const HASH_KEYS = ['a', 'k', 'B', 'x', '1', 'key with space'];

function randomValue(rng: Rng, depth = 0): unknown {
  switch (int(rng, depth >= 2 ? 6 : 8)) {
    case 0:
    case 1:
      return between(rng, -5, 20);
    case 2:
      return pick(rng, [0.5, -1.25, 2.5, 1e-7, 1e21, 0.1 + 0.2]);
    case 3:
      return pick(rng, STRINGS);
    case 4:
      return chance(rng, 0.5);
    case 5:
      return null;
    case 6:
      return Array.from({ length: int(rng, 4) }, () => randomValue(rng, depth + 1));
    default: {
      const hash: Record<string, unknown> = {};
      for (let i = int(rng, 4); i > 0; i--) hash[pick(rng, HASH_KEYS)] = randomValue(rng, depth + 1);
      return hash;
    }
  }
}

function randomValues(rng: Rng): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of VALUE_KEYS) if (chance(rng, 0.8)) values[key] = randomValue(rng);
  return values;
}

// ---------------------------------------------------------------------------------------------------------
// Generator 1: token soup

// biome-ignore format: a table reads better packed
const SOUP = [
  // EPP tags, trimming, literals, comments
  '<%', '%>', '<%=', '-%>', '<%-', '<%#', '<%%', '%%>', '<%- |', '| -%>', '<%= ', ' %>',
  // text and whitespace
  'text', ' ', ' ', '\n', '\t', '\r\n', '\r', 'a,b',
  // variables
  '$x', '$y', '$a', '$h', '$s', '$n', '$u', '$1', '$0', '$::x', '$facts', '$missing', '$_', '$x::y',
  // punctuation and operators
  '[', ']', '{', '}', '(', ')', ',', ';', ':', '=>', '=', '==', '!=', '=~', '!~', '<', '>', '<=', '>=', '+',
  '-', '*', '/', '%', '<<', '>>', '!', '.', '?', '|', '->', '~>', '@', '::', '+=',
  // strings, heredocs, regexps
  "'", '"', '${', '\\', "'q'", `"x\${y}z"`, '"$x"', "'it''s'", '"\\u{1F600}"', '"\\q"', '@(END)', '@("END")',
  '@(END:json)', 'END', '|-END', '| END', '\nEND\n', '/a+/', '/[/', '/(?<n>x)/',
  // numbers
  '0', '1', '-1', '3.14', '1e3', '1.0e-5', '0x1F', '0777', '08', '0b101', '9223372036854775807',
  '9223372036854775808', '-9223372036854775808', '1_000', '.5', '5.',
  // keywords
  'true', 'false', 'undef', 'default', 'if', 'elsif', 'else', 'unless', 'case', 'and', 'or', 'in', 'not',
  'function', 'class', 'node', 'define', 'inherits', 'notify', 'File', 'type', 'attr',
  // functions and types
  'each', 'map', 'filter', 'reduce', 'reverse_each', 'step', 'any', 'all', 'index', 'slice', 'join', 'split',
  'length', 'size', 'keys', 'values', 'sprintf', 'sort', 'unique', 'flatten', 'upcase', 'lest', 'then',
  'with', 'dig', 'epp', 'inline_epp', 'fail', 'break', 'next', 'return', 'to_json', 'to_yaml',
  'to_json_pretty', 'regsubst', 'match', 'String', 'Integer', 'Float', 'Numeric', 'Boolean', 'Array', 'Hash',
  'Optional', 'Enum', 'Variant', 'Struct', 'Tuple', 'Pattern', 'Undef', 'Any', 'Sensitive', 'Integer[1, 3]',
  'Array[String]',
  // lambdas and calls
  '|$v|', '|$k, $v|', '|$memo, $v|', '|$x = 1|', '|*$rest|', '() ', '(1)', '(1, 2)', '[1, 2, 3]',
  "{'a' => 1}", '.each', '.map |$v| { $v }', '.join', 'inline_epp(', "'<%= 1 %>')",
];

function soupTemplate(rng: Rng): string {
  const parts: string[] = [];
  for (let i = between(rng, 1, 40); i > 0; i--) {
    parts.push(pick(rng, SOUP));
    if (chance(rng, 0.4)) parts.push(' ');
  }
  const body = parts.join('');
  switch (int(rng, 4)) {
    case 0:
      return `<% ${body} %>`;
    case 1:
      return `<%= ${body} %>`;
    default:
      return body;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Generator 2: mutated conformance templates

interface Seed {
  readonly name: string;
  readonly template: string;
  readonly values: Record<string, unknown>;
}

function conformanceDir(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return process.env.EPP_CONFORMANCE_DIR ?? join(here, '..', '..', '..', 'shared', 'epp-conformance');
}

function loadSeeds(): Seed[] {
  const cases = join(conformanceDir(), 'cases');
  if (!existsSync(cases)) return [];
  return readdirSync(cases)
    .sort()
    .flatMap((name) => {
      const templatePath = join(cases, name, 'template.epp');
      if (!existsSync(templatePath)) return [];
      const valuesPath = join(cases, name, 'values.json');
      const values = existsSync(valuesPath) ? (JSON.parse(readFileSync(valuesPath, 'utf8')) as unknown) : {};
      const asRecord =
        values !== null && typeof values === 'object' ? (values as Record<string, unknown>) : {};
      return [{ name, template: readFileSync(templatePath, 'utf8'), values: asRecord }];
    });
}

function slice(rng: Rng, text: string): [number, number] {
  const start = int(rng, text.length + 1);
  return [start, Math.min(text.length, start + between(rng, 1, 12))];
}

function mutate(rng: Rng, text: string, seeds: readonly Seed[]): string {
  let out = text;
  for (let n = between(rng, 1, 3); n > 0; n--) {
    const [start, end] = slice(rng, out);
    switch (int(rng, 6)) {
      case 0: // delete a chunk
        out = out.slice(0, start) + out.slice(end);
        break;
      case 1: {
        // insert a chunk of another template
        const other = pick(rng, seeds).template;
        const [s, e] = slice(rng, other);
        out = out.slice(0, start) + other.slice(s, e) + out.slice(start);
        break;
      }
      case 2: // insert a soup token
        out = out.slice(0, start) + pick(rng, SOUP) + out.slice(start);
        break;
      case 3: {
        // swap two chunks; when they overlap, move the first one to the front instead
        const [s2, e2] = slice(rng, out);
        const [first, rest] = [out.slice(start, end), out.slice(0, start)];
        if (s2 >= end) out = rest + out.slice(s2, e2) + out.slice(end, s2) + first + out.slice(e2);
        else out = first + rest + out.slice(end);
        break;
      }
      case 4: // duplicate a chunk
        out = out.slice(0, end) + out.slice(start, end) + out.slice(end);
        break;
      default: // replace one character by a significant one
        out =
          out.slice(0, start) +
          pick(rng, ['%', '<', '>', '-', '$', '{', '}', '|', "'", '"', '\n', '#']) +
          out.slice(start + 1);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Generator 3: a small grammar of (mostly valid) templates

// biome-ignore format: a table reads better packed
const VARIABLES = [
  '$x', '$y', '$s', '$n', '$f', '$a', '$h', '$b', '$u', '$missing', '$1', '$0', '$facts', '$v',
];
// biome-ignore format: a table reads better packed
const TYPES = [
  'Integer', 'Integer[0, 10]', 'Float', 'Float[0.0, 1.0]', 'Numeric', 'String', 'String[1]', 'Boolean',
  'Array', 'Array[Integer]', 'Array[String, 1]', 'Hash', 'Hash[String, Integer]', 'Optional[String]',
  'Variant[Integer, String]', "Enum['a', 'b']", 'Pattern[/^a/]', "Struct[{'a' => Integer}]",
  'Tuple[Integer, String]', 'Undef', 'Any', 'Scalar', 'Data', 'NotAType', 'Integer[3, 1]',
];
const OPERATORS = ['+', '-', '*', '/', '%', '==', '!=', '<', '>', '<=', '>=', 'and', 'or', 'in', '<<', '>>'];
// biome-ignore format: a table reads better packed
const FUNCTIONS = [
  'length', 'size', 'join', 'split', 'keys', 'values', 'upcase', 'downcase', 'capitalize', 'strip', 'chomp',
  'sort', 'unique', 'flatten', 'abs', 'min', 'max', 'floor', 'ceiling', 'round', 'sprintf', 'String',
  'Integer', 'Float', 'type', 'empty', 'dig', 'match', 'regsubst', 'versioncmp', 'compare', 'to_json',
  'to_json_pretty', 'to_yaml', 'fail', 'notice', 'warning', 'epp', 'assert_type', 'nosuchfunction',
  'reverse', 'get', 'lookup', 'include', 'sum',
];
/** Functions called as methods: `$x.length`, never `$x.String`. */
const METHODS = FUNCTIONS.filter((name) => /^[a-z]/.test(name));
const ITERATORS = [
  'each',
  'map',
  'filter',
  'any',
  'all',
  'reverse_each',
  'index',
  'sort',
  'then',
  'lest',
  'with',
];

function atom(rng: Rng): string {
  switch (int(rng, 9)) {
    case 0:
      return String(between(rng, -3, 20));
    case 1:
      return pick(rng, ['1.5', '0.0', '-2.25', '1e3', '3.0', '0.1', '0x10', '010']);
    case 2:
      return `'${pick(rng, ['', 'a', 'Hello', 'x y', '10', 'ABC', 'a.b.c', '%d', "it\\'s"])}'`;
    case 3:
      return pick(rng, ['true', 'false', 'undef', 'default']);
    case 4:
      return pick(rng, ['/a(b)?/', '/^\\d+$/', '/(?i:x)/', '/(?<n>h)/']);
    case 5:
      return pick(rng, TYPES);
    case 6: // overflow candidates only ever appear in arithmetic, never as an iteration count
      return `(${pick(rng, ['9223372036854775807 + 1', '-9223372036854775808 - 1', '4611686018427387904 * 2'])})`;
    default:
      return pick(rng, VARIABLES);
  }
}

/** A receiver for iteration: always small, so loops stay bounded. */
function collection(rng: Rng, depth: number): string {
  switch (int(rng, 7)) {
    case 0:
      return `[${Array.from({ length: int(rng, 4) }, () => expr(rng, depth - 1)).join(', ')}]`;
    case 1:
      return `{${Array.from({ length: int(rng, 3) }, () => `${atom(rng)} => ${expr(rng, depth - 1)}`).join(', ')}}`;
    case 2:
      return pick(rng, ['$a', '$h', '$s', '$x', '$u']);
    case 3:
      return String(between(rng, 0, 4));
    case 4:
      return pick(rng, ["'abc'", 'Integer[1, 3]', "['b', 'a', 'c']", "{'k' => 1, 'j' => 'v'}"]);
    default:
      return pick(rng, ['[1, 2, 3]', "[1, 'two', 3.0, undef]", '[[1, 2], [3]]', "{'a' => {'b' => [1]}}"]);
  }
}

function lambdaParams(rng: Rng): string {
  return pick(rng, [
    '|$v|',
    '|$k, $v|',
    '|$v, $w|',
    '|$memo, $v|',
    '|$v = 1|',
    '||',
    '|Integer $v|',
    '|*$r|',
  ]);
}

function expr(rng: Rng, depth: number): string {
  if (depth <= 0) return atom(rng);
  const d = depth - 1;
  switch (int(rng, 16)) {
    case 0:
    case 1:
      return `${expr(rng, d)} ${pick(rng, OPERATORS)} ${expr(rng, d)}`;
    case 2:
      return `(${expr(rng, d)} ${pick(rng, OPERATORS)} ${expr(rng, d)})`;
    case 3:
      return `${pick(rng, ['!', '-'])}${expr(rng, d)}`;
    case 4:
      return chance(rng, 0.5)
        ? `${collection(rng, d)}[${expr(rng, d)}]`
        : `${collection(rng, d)}[${between(rng, -3, 3)}, ${between(rng, -2, 3)}]`;
    case 5:
      return `${collection(rng, d)}.${pick(rng, METHODS)}${chance(rng, 0.5) ? '' : `(${args(rng, d)})`}`;
    case 6:
      return `${pick(rng, FUNCTIONS)}(${args(rng, d)})`;
    case 7: {
      const iterator = pick(rng, [...ITERATORS, 'reduce', 'reduce(0)', 'step(2)', 'map']);
      return `${collection(rng, d)}.${iterator} ${lambdaParams(rng)} { ${expr(rng, d)} }`;
    }
    case 8:
      return `if ${expr(rng, d)} { ${expr(rng, d)} } elsif ${expr(rng, d)} { ${expr(rng, d)} } else { ${expr(rng, d)} }`;
    case 9:
      return `unless ${expr(rng, d)} { ${expr(rng, d)} }`;
    case 10:
      return `case ${expr(rng, d)} { ${expr(rng, d)}, ${atom(rng)}: { ${expr(rng, d)} } default: { ${expr(rng, d)} } }`;
    case 11:
      return `${expr(rng, d)} ? { ${expr(rng, d)} => ${expr(rng, d)}, default => ${expr(rng, d)} }`;
    case 12:
      return `${expr(rng, d)} ${pick(rng, ['=~', '!~'])} ${chance(rng, 0.5) ? pick(rng, TYPES) : atom(rng)}`;
    case 13:
      return `"${pick(rng, ['', 'a ', 'x'])}\${${expr(rng, d)}}${pick(rng, ['', ' b', '$x', '\\n', '\\u00e9'])}"`;
    case 14:
      return pick(rng, [
        `@("END")\n  text \${${expr(rng, d)}}\n  | END\n`,
        "inline_epp('<%= $x %>')",
        `inline_epp('<%- | $q = 1 | -%><%= $q %>', {'q' => ${expr(rng, d)}})`,
        `sprintf('${pick(rng, ['%s', '%d', '%05.2f', '%x', '%-5s|', '%%', '%q', '%s %s'])}', ${expr(rng, d)})`,
      ]);
    default:
      return collection(rng, d);
  }
}

function args(rng: Rng, depth: number): string {
  return Array.from({ length: int(rng, 3) }, () => expr(rng, depth)).join(', ');
}

function statements(rng: Rng, depth: number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    switch (int(rng, 9)) {
      case 0:
        out.push(pick(rng, ['text ', '\n', '  ', 'a %% b', '<%% literal %%>', 'line\n', '\t']));
        break;
      case 1:
      case 2:
        out.push(`<%= ${expr(rng, depth)} ${pick(rng, ['%>', '-%>'])}`);
        break;
      case 3:
        out.push(
          `<%${pick(rng, [' ', '- '])}$${pick(rng, ['v', 'w', 'x'])} = ${expr(rng, depth)} ${pick(rng, ['%>', '-%>'])}`,
        );
        break;
      case 4:
        out.push(
          `<% if ${expr(rng, depth)} { -%>${statements(rng, depth - 1, 2)}<% } else { %>${statements(rng, depth - 1, 1)}<% } %>`,
        );
        break;
      case 5:
        out.push(
          `<% ${collection(rng, depth)}.each ${lambdaParams(rng)} { -%>${statements(rng, depth - 1, 2)}<% } -%>`,
        );
        break;
      case 6:
        out.push(`<%# ${pick(rng, ['comment', '%>', 'x'])} %>`);
        break;
      case 7:
        out.push(
          `<% ${pick(rng, ['break()', 'next()', 'return(1)', "fail('boom')", "notice('n')", '$x'])} %>`,
        );
        break;
      default:
        out.push(`<%= ${expr(rng, 0)} %>`);
    }
  }
  return out.join('');
}

interface Generated {
  readonly template: string;
  readonly values: Record<string, unknown>;
}

/** A grammar template and values; for one that declares parameters, mostly only values it declares. */
function grammarTemplate(rng: Rng): Generated {
  let values = randomValues(rng);
  let header = '';
  if (chance(rng, 0.3)) {
    // distinct names: a repeated one is a plain syntax error, already covered by the soup
    const names = [...new Set(Array.from({ length: between(rng, 1, 3) }, () => pick(rng, VALUE_KEYS)))];
    const params = names.map((name) => {
      const type = chance(rng, 0.6) ? `${pick(rng, TYPES)} ` : '';
      return `${type}$${name}${chance(rng, 0.5) ? ` = ${expr(rng, 1)}` : ''}`;
    });
    header = `<%- | ${params.join(', ')} | -%>\n`;
    if (chance(rng, 0.8))
      values = Object.fromEntries(Object.entries(values).filter(([k]) => names.includes(k)));
  }
  return { template: header + statements(rng, between(rng, 1, 3), between(rng, 1, 5)), values };
}

// ---------------------------------------------------------------------------------------------------------
// Running cases

interface Case {
  readonly template: string;
  readonly values: Record<string, unknown>;
  readonly strict: boolean;
  readonly delimiters?: readonly [string, string];
  readonly parseOnly: boolean;
}

interface Failure {
  readonly problem: string;
  readonly testCase: Case;
}

interface Outcome {
  readonly failure?: string;
  readonly code?: string;
}

/** What is wrong with a thrown value, or undefined when it is a well-formed EppError. */
function checkError(error: unknown): string | undefined {
  if (!(error instanceof EppError)) {
    if (error instanceof Error) {
      const frame = error.stack?.split('\n').find((l) => l.includes('/src/')) ?? '';
      return `threw ${error.name}: ${error.message} ${frame.trim()}`;
    }
    return `threw a non-error: ${String(error)}`;
  }
  if (typeof error.code !== 'string' || error.code.length === 0)
    return `EppError without a code: ${error.message}`;
  const location = error.location;
  if (location) {
    // One past the end is allowed: an error at the end of input still gets a one-character caret.
    const { start, end } = location.span;
    if (
      !(start >= 0 && start <= end && start <= location.source.length && end <= location.source.length + 1)
    ) {
      return `${error.code}: span [${start}, ${end}) outside its source of length ${location.source.length}`;
    }
    if (!/:\d+:\d+$/.test(error.where)) return `${error.code}: bad position "${error.where}"`;
  }
  return undefined;
}

function withDelimiters(template: string): string {
  return template.replaceAll('<%', '[%').replaceAll('%>', '%]');
}

function runCase(c: Case): Outcome {
  const source = c.delimiters ? withDelimiters(c.template) : c.template;
  const warnings: string[] = [];
  const options = {
    file: 'fuzz.epp',
    strict: c.strict,
    timeLimitMs: RENDER_LIMIT_MS,
    onWarning: (w: { code: string; message: string; where: string }) => {
      warnings.push(`${w.where} ${w.code} ${w.message}`);
    },
    ...(c.delimiters ? { delimiters: c.delimiters } : {}),
  };
  try {
    if (c.parseOnly) {
      const ast = parseEpp(source, options);
      return ast === null || typeof ast !== 'object' ? { failure: `parseEpp returned ${String(ast)}` } : {};
    }
    const out: unknown = renderEpp(source, c.values, options);
    if (typeof out !== 'string') return { failure: `renderEpp returned a ${typeof out}` };
    return compareTiers(out, undefined, warnings, () => renderEpp(source, c.values, options));
  } catch (error) {
    const problem = checkError(error);
    if (problem) return { failure: problem };
    // parseEpp reports no warning; renderEpp, which compareTiers renders with, reports those before a
    // syntax error: as a caller that compiles and renders in two steps does (`reportSyntaxWarnings`).
    if (c.parseOnly) reportSyntaxWarnings(error, options.onWarning);
    const compared = compareTiers(undefined, error as EppError, warnings, () =>
      renderEpp(source, c.values, options),
    );
    return compared.failure ? compared : { code: (error as EppError).code };
  }
}

/** What a render did, for comparing the tiers: its output or its error, and its warnings. */
function renderOutcome(out: string | undefined, error: EppError | undefined, warnings: readonly string[]) {
  const result = error
    ? `error ${error.code} at ${error.where}: ${error.message} (hint: ${error.hint ?? ''})`
    : `output ${JSON.stringify(out)}`;
  return `${result}; warnings ${JSON.stringify(warnings)}`;
}

/**
 * Renders the template twice more (interpreted again, then its compiled code) and compares each outcome with
 * the first, interpreted render's.
 */
function compareTiers(
  out: string | undefined,
  error: EppError | undefined,
  warnings: string[],
  renderAgain: () => string,
): Outcome {
  const first = renderOutcome(out, error, warnings);
  const firstWarnings = warnings.splice(0);
  for (const which of ['second render (interpreted)', 'third render (compiled)']) {
    let again: string;
    try {
      again = renderOutcome(renderAgain(), undefined, warnings);
    } catch (e) {
      const problem = checkError(e);
      if (problem) return { failure: `${which}: ${problem}` };
      // A render stopped by its time limit has no outcome to compare: the other tier may finish in time.
      if ((e as EppError).code === 'EPP_TIME_LIMIT') return {};
      again = renderOutcome(undefined, e as EppError, warnings);
    }
    if (error?.code === 'EPP_TIME_LIMIT') return {};
    warnings.splice(0);
    if (first !== again) return { failure: `the tiers differ:\n  first:  ${first}\n  ${which}: ${again}` };
  }
  warnings.splice(0, warnings.length, ...firstWarnings);
  return {};
}

function makeCase(rng: Rng, template: string, values: Record<string, unknown>): Case {
  return {
    template,
    values,
    strict: chance(rng, 0.6),
    parseOnly: chance(rng, 0.15),
    ...(chance(rng, 0.1) ? { delimiters: ['[%', '%]'] as const } : {}),
  };
}

interface Report {
  readonly cases: number;
  readonly rendered: number;
  readonly codes: Map<string, number>;
  readonly failures: Failure[];
  readonly ms: number;
}

/** Generates and runs cases until the time budget or the case cap is reached. */
function fuzz(
  kind: string,
  salt: number,
  budgetMs: number,
  maxCases: number,
  generate: (rng: Rng) => Case,
): Report {
  const rng = mulberry32(SEED ^ Math.imul(salt, 0x9e3779b1));
  const codes = new Map<string, number>();
  const failures: Failure[] = [];
  let cases = 0;
  let rendered = 0; // full renders that returned a string (parse-only successes are not counted)
  let parsed = 0;
  let errors = 0;
  const start = performance.now();
  while (cases < maxCases && performance.now() - start < budgetMs) {
    const testCase = generate(rng);
    const t0 = performance.now();
    const outcome = runCase(testCase);
    const ms = performance.now() - t0;
    cases++;
    if (outcome.failure) failures.push({ problem: outcome.failure, testCase });
    else if (outcome.code) {
      errors++;
      codes.set(outcome.code, (codes.get(outcome.code) ?? 0) + 1);
    } else if (testCase.parseOnly) parsed++;
    else rendered++;
    if (ms > CASE_LIMIT_MS)
      failures.push({ problem: `took ${Math.round(ms)} ms (limit ${CASE_LIMIT_MS})`, testCase });
  }
  const report = { cases, rendered, codes, failures, ms: performance.now() - start };
  const top = [...codes].sort((a, b) => b[1] - a[1]).slice(0, 6);
  console.log(
    `fuzz ${kind}: ${cases} cases in ${Math.round(report.ms)} ms: ${rendered} rendered, ${parsed} parsed only, ` +
      `${errors} EppErrors (${top.map(([c, n]) => `${c} ${n}`).join(', ')}), ` +
      `${failures.length} failures; seed ${SEED} (FUZZ_SEED=${SEED} replays)`,
  );
  return report;
}

function describeFailures(kind: string, failures: readonly Failure[]): string {
  const shown = failures.slice(0, MAX_REPORTED).map(({ problem, testCase: c }, i) => {
    const how = `strict: ${c.strict}${c.delimiters ? ', delimiters [% %]' : ''}${c.parseOnly ? ', parseEpp only' : ''}`;
    return `#${i + 1} ${problem}\n  template: ${JSON.stringify(c.template)}\n  values: ${JSON.stringify(c.values)}\n  (${how})`;
  });
  return `${failures.length} ${kind} fuzz failures (FUZZ_SEED=${SEED} replays them); the first ${shown.length}:\n${shown.join('\n')}`;
}

// ---------------------------------------------------------------------------------------------------------

/** Conformance templates to mutate; without the suite, grammar templates stand in for them. */
function mutationSeeds(): Seed[] {
  const loaded = loadSeeds();
  if (loaded.length > 0) return loaded;
  const rng = mulberry32(SEED);
  return Array.from({ length: 200 }, (_, i) => ({
    name: `grammar-${i}`,
    ...grammarTemplate(rng),
  }));
}

const seeds = mutationSeeds();
const shares = { soup: 0.3, mutation: 0.4, grammar: 0.3 };
const budget = (kind: keyof typeof shares) => ({
  ms: TOTAL_MS * shares[kind],
  cases: Math.ceil(TOTAL_CASES * shares[kind]),
});

describe('EPP fuzz: bad input only ever produces a typed EppError', () => {
  it('random token soup', () => {
    const { ms, cases } = budget('soup');
    const report = fuzz('soup', 1, ms, cases, (rng) => makeCase(rng, soupTemplate(rng), randomValues(rng)));
    expect(report.cases).toBeGreaterThan(100);
    expect(report.failures.length, describeFailures('soup', report.failures)).toBe(0);
  });

  it('mutated conformance templates', () => {
    const { ms, cases } = budget('mutation');
    const report = fuzz('mutation', 2, ms, cases, (rng) => {
      const seed = pick(rng, seeds);
      const template = chance(rng, 0.05) ? seed.template : mutate(rng, seed.template, seeds);
      return makeCase(rng, template, chance(rng, 0.7) ? seed.values : randomValues(rng));
    });
    expect(report.cases).toBeGreaterThan(100);
    // Mutations often leave a template valid: the renderer, not only the parser, is exercised.
    expect(report.rendered).toBeGreaterThan(0);
    expect(report.failures.length, describeFailures('mutation', report.failures)).toBe(0);
  });

  it('grammar-generated templates', () => {
    const { ms, cases } = budget('grammar');
    const report = fuzz('grammar', 3, ms, cases, (rng) => {
      const { template, values } = grammarTemplate(rng);
      return makeCase(rng, template, values);
    });
    expect(report.cases).toBeGreaterThan(100);
    expect(report.rendered).toBeGreaterThan(0);
    expect(report.failures.length, describeFailures('grammar', report.failures)).toBe(0);
  });
});
