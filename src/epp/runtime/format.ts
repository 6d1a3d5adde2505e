/**
 * How Puppet 7 turns values into text: `<%= %>` output, string interpolation, `String(x[, fmt])` and
 * `sprintf`, byte for byte as Puppet running on Ruby prints them.
 *
 * Three layers, top to bottom:
 * - `renderValue` / `interpolate`: Puppet's evaluator `string()` (strings bare, undef empty, `[a, b]`).
 * - `stringify`: Puppet's `StringConverter` (quotes strings inside collections, spells `undef`, `%f` floats).
 * - `sprintf`: Ruby's `Kernel#format`, including its float rounding. Ruby's dtoa rounds the last digit in
 *   floating point and treats anything within a few ulps of a tie as a tie, rounded half to even; that is
 *   why `%.2f` of 2.675 is `2.68` where C gives `2.67`. `rubyDigits` replays that algorithm step by step.
 *
 * This file is the single entry point; the code lives in `format/`, one module per concern:
 * - `render.ts`: `renderValue`, `interpolate` (the evaluator's `string()`).
 * - `stringify.ts`: `stringify`, the StringConverter's conversion of each kind of value.
 * - `string-formats.ts`: the StringConverter's formats and type-to-format maps (parse, merge, sort).
 * - `quote.ts`: `puppetQuote`.
 * - `sprintf.ts`: `sprintf`, directive parsing and arguments.
 * - `sprintf-numbers.ts`: the integer and float directives.
 * - `sprintf-spec.ts`: a parsed directive, its limits and padding.
 * - `ruby-args.ts`: Ruby's view of the arguments, `Integer(x)` / `Float(x)`.
 * - `inspect.ts`: Ruby's `inspect` / `to_s` texts, `rubyInspectString`.
 * - `floats.ts`: `formatFloat` (Ruby's `Float#to_s`).
 * - `dtoa.ts`: `rubyDigits` (Ruby's dtoa modes 2 and 3).
 * - `timestamps.ts`: `strftime`, `timestampToString`; `timestamp-text.ts`: reading a Timestamp's text
 *   (`parseTimestampText`), with `strptime.ts` (Ruby's `_strptime`), `zone-offsets.ts` (the date gem's
 *   zones) and `c-chars.ts`; `timespans.ts`: a Timespan's format, text and reading.
 * - `ruby-strings.ts`: `rubyStrip`, `rubyLstrip`, `rubyRstrip`, `rubyCapitalize`, `rubyDowncase`.
 */
export { rubyDigits } from './format/dtoa.js';
export { formatFloat } from './format/floats.js';
export { checkStringFormats } from './format/formats-type.js';
export { regexpWithDelimiters, rubyInspectString, rubyRegexpToS } from './format/inspect.js';
export { puppetQuote } from './format/quote.js';
export { interpolate, renderValue } from './format/render.js';
export { rubyCapitalize, rubyDowncase, rubyLstrip, rubyRstrip, rubyStrip } from './format/ruby-strings.js';
export { sprintf } from './format/sprintf.js';
export { stringify } from './format/stringify.js';
export { formatTimespan, parseTimespan, timespanToString } from './format/timespans.js';
export { parseTimestampText } from './format/timestamp-text.js';
export { strftime, timeDataToString, timestampToString } from './format/timestamps.js';
