/**
 * Arguments Puppet's dispatch refuses, in its words: `new` of a type counting its arguments under the
 * name of the function it calls (`'new_array'`, `'new'` for Integer, `'new_float'` for Regexp as Puppet
 * names it), Float's and Numeric's `abs`, strftime's and assert_type's first argument and `index` without
 * a block or a value listing every dispatch, the pattern of `split` and `regsubst`, `sprintf()` (a Puppet
 * 3 function's count error), "at least 1 argument"; `new` of Timestamp, Timespan and Hash listing
 * each of their dispatches, String's `string_formats` refused by its `Formats` type (session 32). Expected: what `puppet epp render` (Puppet 7.23) printed for each
 * template in session 31 (conformance cases `error_new_*`, `error_strftime_*` check first lines too).
 */
import { describe, expect, it } from 'vitest';
import { renderFailure } from '../helpers/epp-failure.js';

/** [template, Puppet's message, line:column] */
const PUPPET: readonly (readonly [string, string, string])[] = [
  // Session 34 (found by scripts/function-sweep.mjs): call's Deferred dispatch counts before its type;
  // strftime of a format refuses a timezone that is no String before our refusal of the current time.
  [
    '<%= call(true, true) %>',
    "Error while evaluating a Function Call, The function 'call' was called with arguments it does not accept. It expects one of:\n  (String function_name, Any arguments*, Callable block?)\n    rejected: parameter 'function_name' expects a String value, got Boolean\n  (Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}] deferred)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    "<%= strftime('x', true) %>",
    "Error while evaluating a Function Call, The function 'strftime' was called with arguments it does not accept. It expects one of:\n  (Timespan time_object, String format)\n    rejected: parameter 'time_object' expects a Timespan value, got String\n  (Timestamp time_object, String format, String timezone?)\n    rejected: parameter 'time_object' expects a Timestamp value, got String\n  (String format, String timezone?)\n    rejected: parameter 'timezone' expects a String value, got Boolean",
    '1:5',
  ],
  [
    "<%= 'abc'.split(1) %>",
    "Error while evaluating a Method call, 'split' parameter 'pattern' expects a value of type String, Regexp, or Type[Regexp], got Integer",
    '1:16',
  ],
  [
    '<%= strftime(1) %>',
    "Error while evaluating a Function Call, The function 'strftime' was called with arguments it does not accept. It expects one of:\n  (Timespan time_object, String format)\n    rejected: expects 2 arguments, got 1\n  (Timestamp time_object, String format, String timezone?)\n    rejected: expects between 2 and 3 arguments, got 1\n  (String format, String timezone?)\n    rejected: parameter 'format' expects a String value, got Integer",
    '1:5',
  ],
  [
    '<%= Sensitive(1, 2) %>',
    "Error while evaluating a Function Call, 'new_Sensitive' expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= Array({a=>1}, 1) %>',
    "Error while evaluating a Function Call, 'new_array' parameter 'wrap' expects a Boolean value, got Integer",
    '1:5',
  ],
  [
    "<%= strftime(1, '%Y') %>",
    "Error while evaluating a Function Call, The function 'strftime' was called with arguments it does not accept. It expects one of:\n  (Timespan time_object, String format)\n    rejected: parameter 'time_object' expects a Timespan value, got Integer\n  (Timestamp time_object, String format, String timezone?)\n    rejected: parameter 'time_object' expects a Timestamp value, got Integer\n  (String format, String timezone?)\n    rejected: parameter 'format' expects a String value, got Integer",
    '1:5',
  ],
  [
    "<%= strftime(1, '%Y', 'UTC') %>",
    "Error while evaluating a Function Call, The function 'strftime' was called with arguments it does not accept. It expects one of:\n  (Timespan time_object, String format)\n    rejected: expects 2 arguments, got 3\n  (Timestamp time_object, String format, String timezone?)\n    rejected: parameter 'time_object' expects a Timestamp value, got Integer\n  (String format, String timezone?)\n    rejected: expects between 1 and 2 arguments, got 3",
    '1:5',
  ],
  [
    "<%= regsubst('a', 1, 'b') %>",
    "Error while evaluating a Function Call, 'regsubst' parameter 'pattern' expects a value of type String, Regexp, or Type[Regexp], got Integer",
    '1:5',
  ],
  [
    '<%= Array(1, 2, 3) %>',
    "Error while evaluating a Function Call, 'new_array' expects between 1 and 2 arguments, got 3",
    '1:5',
  ],
  [
    "<%= Array('a', 'x') %>",
    "Error while evaluating a Function Call, 'new_array' parameter 'wrap' expects a Boolean value, got String",
    '1:5',
  ],
  [
    '<%= Sensitive() %>',
    "Error while evaluating a Function Call, 'new_Sensitive' expects 1 argument, got none",
    '1:5',
  ],
  [
    '<%= Boolean(1, 2) %>',
    "Error while evaluating a Function Call, 'new_boolean' expects 1 argument, got 2",
    '1:5',
  ],
  [
    "<%= Integer('1', 2, 3, 4) %>",
    "Error while evaluating a Function Call, 'new' expects between 1 and 3 arguments, got 4",
    '1:5',
  ],
  [
    "<%= Float('1', 2) %>",
    "Error while evaluating a Function Call, The function 'new_float' was called with arguments it does not accept. It expects one of:\n  (Convertible = Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp] from, Boolean abs?)\n    rejected: parameter 'abs' expects a Boolean value, got Integer\n  (NamedArgs = Struct[{'from' => Convertible = Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp], Optional['abs'] => Boolean}] hash_args)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= Numeric(1, 2) %>',
    "Error while evaluating a Function Call, The function 'new_numeric' was called with arguments it does not accept. It expects one of:\n  (Convertible = Variant[Integer, Float, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp] from, Boolean abs?)\n    rejected: parameter 'abs' expects a Boolean value, got Integer\n  (NamedArgs = Struct[{'from' => Convertible = Variant[Integer, Float, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE]-?\\d+)?)|(?:0[xX][0-9A-Fa-f]+)|(?:0[0-7]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp], Optional['abs'] => Boolean}] hash_args)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= Regexp(1) %>',
    "Error while evaluating a Function Call, 'new_float' parameter 'pattern' expects a String value, got Integer",
    '1:5',
  ],
  [
    "<%= Regexp('a', 1, 2) %>",
    "Error while evaluating a Function Call, 'new_float' expects between 1 and 2 arguments, got 3",
    '1:5',
  ],
  ['<%= Type() %>', "Error while evaluating a Function Call, 'new_type' expects 1 argument, got none", '1:5'],
  [
    '<%= NotUndef() %>',
    "Error while evaluating a Function Call, 'new_unit' expects 1 argument, got none",
    '1:5',
  ],
  [
    '<%= Hash(1, 2, 3) %>',
    "Error while evaluating a Function Call, 'new_hash' expects between 1 and 2 arguments, got 3",
    '1:5',
  ],
  [
    '<%= String() %>',
    "Error while evaluating a Function Call, 'new_string' expects between 1 and 2 arguments, got none",
    '1:5',
  ],
  [
    '<%= Timestamp(1, 2, 3, 4) %>',
    "Error while evaluating a Function Call, 'new_timestamp' expects at most 3 arguments, got 4",
    '1:5',
  ],
  [
    '<%= Timespan(1, 2, 3, 4, 5, 6, 7, 8) %>',
    "Error while evaluating a Function Call, 'new_timespan' expects between 1 and 7 arguments, got 8",
    '1:5',
  ],
  [
    '<%= Float() %>',
    "Error while evaluating a Function Call, 'new_float' expects between 1 and 2 arguments, got none",
    '1:5',
  ],
  [
    '<%= Numeric() %>',
    "Error while evaluating a Function Call, 'new_numeric' expects between 1 and 2 arguments, got none",
    '1:5',
  ],
  [
    '<%= Regexp() %>',
    "Error while evaluating a Function Call, 'new_float' expects between 1 and 2 arguments, got none",
    '1:5',
  ],
  [
    '<%= Array() %>',
    "Error while evaluating a Function Call, 'new_array' expects between 1 and 2 arguments, got none",
    '1:5',
  ],
  [
    "<%= Integer('1', 'x') %>",
    "Error while evaluating a Function Call, The function 'new' was called with arguments it does not accept. It expects one of:\n  (Convertible = Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp] from, Radix = Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]] radix?, Boolean abs?)\n    rejected: parameter 'radix' expects a Radix = Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]] value, got String\n  (NamedArgs = Struct[{'from' => Convertible = Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\\z/], Timespan, Timestamp], Optional['radix'] => Radix = Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]], Optional['abs'] => Boolean}] hash_args)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= Boolean() %>',
    "Error while evaluating a Function Call, 'new_boolean' expects 1 argument, got none",
    '1:5',
  ],
  [
    '<%= String(1, 2, 3) %>',
    "Error while evaluating a Function Call, 'new_string' expects between 1 and 2 arguments, got 3",
    '1:5',
  ],
  [
    '<%= dig() %>',
    "Error while evaluating a Function Call, 'dig' expects at least 1 argument, got none",
    '1:5',
  ],
  [
    '<%= assert_type(1, 2) %>',
    "Error while evaluating a Function Call, The function 'assert_type' was called with arguments it does not accept. It expects one of:\n  (Type type, Any value, Callable[Type, Type] block?)\n    rejected: parameter 'type' expects a Type value, got Integer\n  (String type_string, Any value, Callable[Type, Type] block?)\n    rejected: parameter 'type_string' expects a String value, got Integer",
    '1:5',
  ],
  [
    '<%= sprintf() %>',
    'Error while evaluating a Function Call, sprintf(): Wrong number of arguments given (0 for minimum 1)',
    '1:5',
  ],
  [
    '<%= [1].index() %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Tuple\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Tuple\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: expects a block\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: expects a block\n  (String str, Variant[String, Regexp] match)\n    rejected: expects 2 arguments, got 1\n  (Iterable enumerable, Any match)\n    rejected: expects 2 arguments, got 1",
    '1:14',
  ],
  [
    '<%= tree_each(1) %>',
    "Error while evaluating a Function Call, 'tree_each' parameter 'tree' expects a value of type Iterator, Array, Hash, or Object, got Integer",
    '1:5',
  ],
  // session 32: `new` of Timestamp, Timespan and Hash lists each dispatch; String's formats by its type.
  [
    '<%= Timestamp(true) %>',
    "Error while evaluating a Function Call, The function 'new_timestamp' was called with arguments it does not accept. It expects one of:\n  ()\n    rejected: expects no arguments, got 1\n  (Variant[Integer, Float] seconds)\n    rejected: parameter 'seconds' expects a value of type Integer or Float, got Boolean\n  (String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?, String[1] timezone?)\n    rejected: parameter 'string' expects a String value, got Boolean\n  (Struct[{'string' => String[1], Optional['format'] => Formats, Optional['timezone'] => String[1]}] hash_arg)\n    rejected: parameter 'hash_arg' expects a Struct value, got Boolean",
    '1:5',
  ],
  [
    "<%= Timespan('1','x') %>",
    "Error while evaluating a Function Call, The function 'new_timespan' was called with arguments it does not accept. It expects one of:\n  (Variant[Integer, Float] seconds)\n    rejected: expects 1 argument, got 2\n  (String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?)\n    rejected: parameter 'format' expects a Formats = Variant[String[2], Array[String[2], 1]] value, got String\n  (Integer days, Integer hours, Integer minutes, Integer seconds, Integer milliseconds?, Integer microseconds?, Integer nanoseconds?)\n    rejected: expects between 4 and 7 arguments, got 2\n  (Struct[{'string' => String[1], Optional['format'] => Formats}] hash_arg)\n    rejected: expects 1 argument, got 2\n  (Struct[{Optional['negative'] => Boolean, Optional['days'] => Integer, Optional['hours'] => Integer, Optional['minutes'] => Integer, Optional['seconds'] => Integer, Optional['milliseconds'] => Integer, Optional['microseconds'] => Integer, Optional['nanoseconds'] => Integer}] hash_arg)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= Hash(1,2) %>',
    "Error while evaluating a Function Call, The function 'new_hash' was called with arguments it does not accept. It expects one of:\n  (TreeArray = Array[Tuple[Array, Any], 1] from, NewHashOption = Enum['hash_tree', 'tree'] build_option?)\n    rejected: parameter 'from' expects a TreeArray = Array[Tuple[Array, Any], 1] value, got Integer\n  (KeyValueArray = Array[Tuple[Any, Any], 1] from)\n    rejected: expects 1 argument, got 2\n  (Any from)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= String(1,2) %>',
    "Error while evaluating a Function Call, 'new_string' parameter 'string_formats' expects a Formats = Variant[Default, String[1], TypeMap = Hash[Type, Variant[Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], ContainerFormat = Struct[{Optional['format'] => Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], Optional['separator'] => String, Optional['separator2'] => String, Optional['string_formats'] => Hash[Type, Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/]]}]]]] value, got Integer",
    '1:5',
  ],
  [
    '<%= String(1, undef) %>',
    "Error while evaluating a Function Call, 'new_string' parameter 'string_formats' expects a Formats = Variant[Default, String[1], TypeMap = Hash[Type, Variant[Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], ContainerFormat = Struct[{Optional['format'] => Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/], Optional['separator'] => String, Optional['separator2'] => String, Optional['string_formats'] => Hash[Type, Format = Pattern[/^%([\\s\\[+#0{<(|-]*)([1-9][0-9]*)?(?:\\.([0-9]+))?([a-zA-Z])$/]]}]]]] value, got Undef",
    '1:5',
  ],
  [
    "<%= Timestamp('2020-01-01', default) %>",
    "Error while evaluating a Function Call, The function 'new_timestamp' was called with arguments it does not accept. It expects one of:\n  ()\n    rejected: expects no arguments, got 2\n  (Variant[Integer, Float] seconds)\n    rejected: expects 1 argument, got 2\n  (String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?, String[1] timezone?)\n    rejected: parameter 'format' expects a Formats = Variant[String[2], Array[String[2], 1]] value, got Default\n  (Struct[{'string' => String[1], Optional['format'] => Formats, Optional['timezone'] => String[1]}] hash_arg)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    "<%= Hash([], 'tree') %>",
    "Error while evaluating a Function Call, The function 'new_hash' was called with arguments it does not accept. It expects one of:\n  (TreeArray = Array[Tuple[Array, Any], 1] from, NewHashOption = Enum['hash_tree', 'tree'] build_option?)\n    rejected: parameter 'from' expects size to be at least 1, got 0\n  (KeyValueArray = Array[Tuple[Any, Any], 1] from)\n    rejected: expects 1 argument, got 2\n  (Any from)\n    rejected: expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= Timespan({days=>1, foo=>2}) %>',
    "Error while evaluating a Function Call, The function 'new_timespan' was called with arguments it does not accept. It expects one of:\n  (Variant[Integer, Float] seconds)\n    rejected: parameter 'seconds' expects a value of type Integer or Float, got Struct\n  (String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?)\n    rejected: parameter 'string' expects a String value, got Struct\n  (Integer days, Integer hours, Integer minutes, Integer seconds, Integer milliseconds?, Integer microseconds?, Integer nanoseconds?)\n    rejected: expects between 4 and 7 arguments, got 1\n  (Struct[{'string' => String[1], Optional['format'] => Formats}] hash_arg)\n    rejected: parameter 'hash_arg' expects a value for key 'string'\n    rejected: parameter 'hash_arg' unrecognized key 'days'\n    rejected: parameter 'hash_arg' unrecognized key 'foo'\n  (Struct[{Optional['negative'] => Boolean, Optional['days'] => Integer, Optional['hours'] => Integer, Optional['minutes'] => Integer, Optional['seconds'] => Integer, Optional['milliseconds'] => Integer, Optional['microseconds'] => Integer, Optional['nanoseconds'] => Integer}] hash_arg)\n    rejected: parameter 'hash_arg' unrecognized key 'foo'",
    '1:5',
  ],
];

describe('arguments no dispatch takes, in Puppet 7.23 words', () => {
  it.each(PUPPET)('%s fails as Puppet does', (template, message, at) => {
    expect(renderFailure(template)).toEqual({ message, at });
  });
});
