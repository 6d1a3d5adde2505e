/**
 * What an editor shows about the built-in functions and the data types: a signature and one line each,
 * written after Puppet 7's function reference. The registry (functions/index.ts) knows only names and
 * arities; a test checks that every registered function and every type name has its entry here.
 */

export interface FunctionDoc {
  /** `join(Array $array, String $separator = '') -> String`. */
  readonly signature: string;
  readonly description: string;
}

const doc = (signature: string, description: string): FunctionDoc => ({ signature, description });

export const FUNCTION_DOCS: Readonly<Record<string, FunctionDoc>> = {
  abs: doc('abs(Numeric $value) -> Numeric', 'The absolute value of a number.'),
  alert: doc('alert(Any *$values) -> Undef', 'Logs a message at the alert level.'),
  all: doc('all(Iterable $iterable) |$value| -> Boolean', 'True when the block is truthy for every element.'),
  any: doc('any(Iterable $iterable) |$value| -> Boolean', 'True when the block is truthy for any element.'),
  any2bool: doc(
    'any2bool(Any $value) -> Boolean',
    'Turns a boolean, number, or word such as yes/no into a boolean; other values are true (stdlib).',
  ),
  any2array: doc(
    'any2array(Any *$values) -> Array',
    'The value as an array: a hash as its keys and values (stdlib).',
  ),
  assert_type: doc(
    'assert_type(Type $type, Any $value) -> Any',
    'Returns the value when it is of the type, else fails (or calls the block).',
  ),
  base64: doc(
    "base64(Enum['encode', 'decode'] $action, String $string, Enum['default', 'strict', 'urlsafe'] $method = 'default') -> String",
    'Base64-encodes or decodes a string (stdlib).',
  ),
  basename: doc(
    'basename(String $path, String $suffix = undef) -> String',
    'The last component of a path, without the suffix (`.*`: any extension) (stdlib).',
  ),
  batch_escape: doc(
    'batch_escape(Any $string) -> String',
    'Deprecated name of stdlib::batch_escape (stdlib).',
  ),
  bool2num: doc(
    'bool2num(Variant[Boolean, String] $value) -> Integer',
    '1 for true (or yes, y, 1, ...), 0 for false (stdlib).',
  ),
  bool2str: doc(
    "bool2str(Boolean $value, String $true_text = 'true', String $false_text = 'false') -> String",
    'A boolean as text (stdlib).',
  ),
  break: doc('break() -> Undef', 'Stops the innermost iteration.'),
  call: doc('call(String $function_name, Any *$arguments) |*$args| -> Any', 'Calls a function by its name.'),
  camelcase: doc('camelcase(String $string) -> String', 'Turns snake_case into CamelCase.'),
  capitalize: doc('capitalize(String $string) -> String', 'Upper-cases the first letter.'),
  ceiling: doc('ceiling(Numeric $value) -> Integer', 'The smallest integer not less than the value.'),
  chomp: doc('chomp(String $string) -> String', 'Removes one trailing line break.'),
  chop: doc('chop(String $string) -> String', 'Removes the last character (or a trailing \\r\\n).'),
  clamp: doc(
    'clamp(Variant[Numeric, String, Array] *$values) -> Integer',
    'The middle one of three numbers (stdlib).',
  ),
  compare: doc('compare(Any $a, Any $b) -> Integer', 'Compares two values: -1, 0 or 1.'),
  convert_base: doc(
    'convert_base(Variant[Integer, String] $number, Variant[Integer, String] $base) -> String',
    'A base-10 number written in another base, 2 to 36 (stdlib).',
  ),
  concat: doc(
    'concat(Array $array, Any *$values) -> Array',
    'The array with the values (or their elements) appended (stdlib).',
  ),
  convert_to: doc('convert_to(Any $value, Type $type) -> Any', 'Converts a value to the type (as new).'),
  count: doc(
    'count(Collection|String $collection, Any $item = undef) -> Integer',
    'How many elements equal the item, or are neither undef nor empty (stdlib).',
  ),
  crit: doc('crit(Any *$values) -> Undef', 'Logs a message at the critical level.'),
  debug: doc('debug(Any *$values) -> Undef', 'Logs a message at the debug level.'),
  deep_merge: doc(
    'deep_merge(Hash *$hashes) -> Hash',
    'Merges hashes, merging the hashes under one key in turn (stdlib).',
  ),
  defined: doc('defined(String *$names) -> Boolean', 'Whether a variable (`$name`) or type is defined.'),
  delete: doc(
    'delete(Collection|String $collection, Any $items) -> Collection|String',
    'Removes elements, keys or substrings (stdlib).',
  ),
  delete_at: doc(
    'delete_at(Array $array, Integer $index) -> Array',
    'Removes the element at an index (stdlib).',
  ),
  delete_regex: doc(
    'delete_regex(Collection $collection, Variant[String, Array] $patterns) -> Collection',
    'Removes the elements or keys a regexp matches as a word (stdlib).',
  ),
  delete_undef_values: doc(
    'delete_undef_values(Collection $collection) -> Collection',
    'Drops undef values from an array or hash (stdlib).',
  ),
  delete_values: doc(
    'delete_values(Hash $hash, Any $value) -> Hash',
    'Removes the entries with the value (stdlib).',
  ),
  difference: doc(
    'difference(Array $a, Array $b) -> Array',
    'The elements of the first array not in the second (stdlib).',
  ),
  dig: doc('dig(Collection $data, Any *$keys) -> Any', 'Digs into nested data by keys; undef when absent.'),
  digest: doc(
    'digest(String $string) -> String',
    "The digest in hex with Puppet's digest_algorithm: SHA-256.",
  ),
  dirname: doc('dirname(String $path) -> String', 'A path without its last component (stdlib).'),
  dos2unix: doc('dos2unix(String $string) -> String', 'Replaces CRLF line endings with LF (stdlib).'),
  downcase: doc('downcase(String $string) -> String', 'Lower-cases a string (or the strings of an array).'),
  each: doc('each(Iterable $iterable) |$value| -> Iterable', 'Calls the block for each element.'),
  emerg: doc('emerg(Any *$values) -> Undef', 'Logs a message at the emergency level.'),
  empty: doc('empty(Any $value) -> Boolean', 'Whether a string, array or hash is empty.'),
  enclose_ipv6: doc(
    'enclose_ipv6(Variant[String, Array[String]] $addresses) -> Array[String]',
    'Puts IPv6 addresses in square brackets (stdlib).',
  ),
  epp: doc(
    'epp(String $template, Hash $args = {}) -> String',
    "Renders another EPP file, relative to the template's directory.",
  ),
  err: doc('err(Any *$values) -> Undef', 'Logs a message at the error level.'),
  fail: doc('fail(Any *$message) -> Undef', 'Stops rendering with an error message.'),
  filter: doc('filter(Iterable $iterable) |$value| -> Collection', 'The elements the block is truthy for.'),
  flatten: doc('flatten(Any *$values) -> Array', 'Flattens nested arrays into one.'),
  floor: doc('floor(Numeric $value) -> Integer', 'The largest integer not greater than the value.'),
  get: doc(
    'get(Any $data, String $path, Any $default = undef) -> Any',
    'Looks a dotted path (`a.b.0`) up in nested data.',
  ),
  getvar: doc(
    'getvar(String $name, Any $default = undef) -> Any',
    'The value of a variable named by a string.',
  ),
  group_by: doc(
    'group_by(Collection $collection) |$value| -> Hash',
    "Groups elements by the block's result.",
  ),
  index: doc(
    'index(Iterable $iterable, Any $value) -> Optional[Integer]',
    'The index of a value or of the first match of the block.',
  ),
  info: doc('info(Any *$values) -> Undef', 'Logs a message at the info level.'),
  inline_epp: doc('inline_epp(String $template, Hash $args = {}) -> String', 'Renders EPP source text.'),
  intersection: doc(
    'intersection(Array $a, Array $b) -> Array',
    'The elements in both arrays, once each (stdlib).',
  ),
  is_a: doc('is_a(Any $value, Type $type) -> Boolean', 'Whether the value is of the type (stdlib).'),
  join: doc("join(Array $array, String $separator = '') -> String", 'Joins the elements into a string.'),
  join_keys_to_values: doc(
    'join_keys_to_values(Hash $hash, String $separator) -> Array[String]',
    'Joins each key to its value (stdlib).',
  ),
  keys: doc('keys(Hash $hash) -> Array', 'The keys of a hash.'),
  length: doc('length(Collection|String $value) -> Integer', 'The number of elements or characters.'),
  lest: doc('lest(Any $value) || -> Any', "The value, or the block's result when the value is undef."),
  lstrip: doc('lstrip(String $string) -> String', 'Removes leading whitespace.'),
  map: doc('map(Iterable $iterable) |$value| -> Array', "The block's result for each element."),
  match: doc(
    'match(String $string, Regexp $pattern) -> Optional[Array]',
    'The match and its captures, or undef.',
  ),
  max: doc('max(Any *$values) -> Any', 'The greatest of the values.'),
  md5: doc('md5(String $string) -> String', 'The MD5 digest in hex.'),
  member: doc(
    'member(Array $array, Variant[String, Integer, Array] $item) -> Boolean',
    'Whether the array holds the item (or every one of the items) (stdlib).',
  ),
  merge: doc(
    'merge(Hash *$hashes) -> Hash',
    'Merges hashes, later keys winning; deprecated for stdlib::merge (stdlib).',
  ),
  min: doc('min(Any *$values) -> Any', 'The least of the values.'),
  new: doc('new(Type $type, Any *$args) -> Any', 'Makes a value of a type from the arguments.'),
  next: doc('next(Any $value = undef) -> Undef', "Ends the block's current call with a value."),
  notice: doc('notice(Any *$values) -> Undef', 'Logs a message at the notice level.'),
  num2bool: doc(
    'num2bool(Variant[Numeric, String] $number) -> Boolean',
    'True for a number (or numeric string) of at least 1 (stdlib).',
  ),
  parsejson: doc(
    'parsejson(String $json, Any $default = undef) -> Any',
    'The data of a JSON text, or the default where it does not parse (stdlib).',
  ),
  parsepson: doc(
    'parsepson(String[1] $pson_string, Any $default) -> Any',
    'The data of a PSON text, or the default where it does not parse (stdlib, deprecated).',
  ),
  partition: doc(
    'partition(Collection $collection) |$value| -> Array[Collection, 2, 2]',
    'Splits into the elements the block accepts and the rest.',
  ),
  pick: doc('pick(Any *$values) -> Any', 'The first value that is neither undef nor empty (stdlib).'),
  pick_default: doc(
    'pick_default(Any *$values) -> Any',
    'The first value that is neither undef nor empty, else the last (stdlib).',
  ),
  powershell_escape: doc(
    'powershell_escape(Any $string) -> String',
    'Deprecated name of stdlib::powershell_escape (stdlib).',
  ),
  prefix: doc(
    'prefix(Collection $collection, String $prefix = undef) -> Collection',
    'Puts the text before each element or hash key (stdlib).',
  ),
  range: doc(
    'range(Any $start, Any $stop = undef, Integer $step = 1) -> Array',
    'The integers or strings from start to stop (stdlib).',
  ),
  reduce: doc(
    'reduce(Iterable $iterable, Any $start) |$memo, $value| -> Any',
    'Folds the elements with the block.',
  ),
  regexpescape: doc(
    'regexpescape(Variant[String, Array] $value) -> Variant[String, Array]',
    'Escapes the characters a regexp treats specially (stdlib).',
  ),
  regsubst: doc(
    "regsubst(String $target, Regexp|String $pattern, String $replacement, String $flags = '') -> String",
    'Replaces the first (or with `G` every) match.',
  ),
  reject: doc(
    'reject(Array $array, String $pattern) -> Array',
    'The elements the regexp does not match (stdlib).',
  ),
  return: doc('return(Any $value = undef) -> Undef', 'Ends the template or block with a value.'),
  reverse_each: doc(
    'reverse_each(Iterable $iterable) |$value| -> Iterator',
    'Iterates from the last element; without a block, an Iterator (lazy, no Array: `Array($it)` makes one).',
  ),
  round: doc('round(Numeric $value) -> Integer', 'The nearest integer (halves away from zero).'),
  rstrip: doc('rstrip(String $string) -> String', 'Removes trailing whitespace.'),
  sha1: doc('sha1(String $string) -> String', 'The SHA-1 digest in hex.'),
  sha256: doc('sha256(String $string) -> String', 'The SHA-256 digest in hex.'),
  shell_escape: doc(
    'shell_escape(Any $string) -> String',
    'Deprecated name of stdlib::shell_escape (stdlib).',
  ),
  shell_join: doc(
    'shell_join(Array $words) -> String',
    'Joins words into a command line, each escaped for a POSIX shell (stdlib).',
  ),
  shell_split: doc(
    'shell_split(String $line) -> Array[String]',
    'Splits a command line into words as a POSIX shell does (stdlib).',
  ),
  shellquote: doc('shellquote(Any *$args) -> String', 'Quotes arguments for a POSIX shell.'),
  size: doc('size(Collection|String $value) -> Integer', 'The number of elements or characters.'),
  slice: doc('slice(Iterable $iterable, Integer $size) |*$slice| -> Any', 'Iterates over slices of a size.'),
  sort: doc('sort(Array $array) |$a, $b| -> Array', 'Sorts, with the block as comparator when given.'),
  split: doc(
    'split(String $string, Regexp|String $pattern) -> Array[String]',
    'Splits a string at a pattern.',
  ),
  sprintf: doc('sprintf(String $format, Any *$args) -> String', 'Formats values as Ruby sprintf does.'),
  squeeze: doc(
    'squeeze(Variant[String, Array[String]] $value, String $characters = undef) -> Variant[String, Array[String]]',
    'Reduces runs of the same character (of the set, when given) to one (stdlib).',
  ),
  'stdlib::batch_escape': doc(
    'stdlib::batch_escape(Any $string) -> String',
    'The value quoted for a Windows batch file (stdlib).',
  ),
  'stdlib::crc32': doc(
    'stdlib::crc32(Variant[ScalarData, Sensitive[ScalarData]] $data) -> String',
    "The CRC-32 of the value's text, in hex (stdlib).",
  ),
  'stdlib::end_with': doc(
    'stdlib::end_with(String $string, Variant[String[1], Array[String[1], 1]] $suffixes) -> Boolean',
    'True when the string ends with one of the suffixes (stdlib).',
  ),
  'stdlib::ensure': doc(
    "stdlib::ensure(Variant[Boolean, Enum['present', 'absent']] $ensure, String $resource = undef) -> String",
    'Turns a boolean or present/absent into an ensure value (stdlib).',
  ),
  'stdlib::extname': doc(
    'stdlib::extname(String $filename) -> String',
    'The extension of a file name, with its dot (stdlib).',
  ),
  'stdlib::ip_in_range': doc(
    'stdlib::ip_in_range(String $ipaddress, Variant[String, Array] $range) -> Boolean',
    'True when the address is in the network (or one of the networks) (stdlib).',
  ),
  'stdlib::powershell_escape': doc(
    'stdlib::powershell_escape(Any $string) -> String',
    'The value escaped for PowerShell (stdlib).',
  ),
  'stdlib::sha256': doc(
    'stdlib::sha256(Variant[ScalarData, Sensitive[ScalarData]] $data) -> String',
    "The SHA-256 of the value's text, in hex (stdlib).",
  ),
  'stdlib::shell_escape': doc(
    'stdlib::shell_escape(Any $string) -> String',
    'The value escaped for a POSIX shell (stdlib).',
  ),
  'stdlib::start_with': doc(
    'stdlib::start_with(String $string, Variant[String[1], Array[String[1], 1]] $prefixes) -> Boolean',
    'True when the string starts with one of the prefixes (stdlib).',
  ),
  'stdlib::merge': doc(
    'stdlib::merge(Variant[Hash, Undef, String[0, 0]] *$hashes) -> Hash',
    'Merges hashes, later keys winning, or the hashes a block returns (stdlib).',
  ),
  'stdlib::nested_values': doc(
    'stdlib::nested_values(Hash $hash) -> Array',
    'The values of a hash and of the hashes nested in it (stdlib).',
  ),
  'stdlib::sort_by': doc(
    'stdlib::sort_by(Iterable $iterable) |$value| -> Iterable',
    "Sorted by the block's answer for each element (stdlib).",
  ),
  'stdlib::to_json': doc('stdlib::to_json(Any $data) -> String', 'The data as JSON (stdlib).'),
  'stdlib::to_json_pretty': doc(
    'stdlib::to_json_pretty(Any $data, Boolean $skip_undef = false) -> String',
    'The data as indented JSON (stdlib).',
  ),
  'stdlib::to_python': doc(
    'stdlib::to_python(Any $object) -> String',
    "The value as a Python literal, after Puppet's rich-data conversion (stdlib).",
  ),
  'stdlib::to_ruby': doc(
    'stdlib::to_ruby(Any $object) -> String',
    "The value as a Ruby literal, after Puppet's rich-data conversion (stdlib).",
  ),
  'stdlib::to_toml': doc('stdlib::to_toml(Hash $data) -> String', 'The hash as TOML, keys sorted (stdlib).'),
  'stdlib::to_yaml': doc('stdlib::to_yaml(Any $data) -> String', 'The data as YAML (stdlib).'),
  'stdlib::type_of': doc(
    'stdlib::type_of(Any $value) -> Type',
    'The detailed type of a value, as type() (stdlib).',
  ),
  'stdlib::xml_encode': doc(
    "stdlib::xml_encode(String $string, Enum['text', 'attr'] $type = 'text') -> String",
    'The string escaped for XML text, or quoted as an attribute value (stdlib).',
  ),
  step: doc(
    'step(Iterable $iterable, Integer $step) |$value| -> Iterator',
    'Every n-th element; without a block, an Iterator (lazy, no Array: `Array($it)` makes one).',
  ),
  str2bool: doc(
    'str2bool(Variant[String, Boolean] $value) -> Boolean',
    "Turns yes/no, true/false, y/n, 1/0 (or '') into a boolean (stdlib).",
  ),
  strftime: doc('strftime(Timestamp $time, String $format) -> String', 'Formats a timestamp.'),
  strip: doc('strip(String $string) -> String', 'Removes leading and trailing whitespace.'),
  swapcase: doc(
    'swapcase(Variant[String, Array] $value) -> Variant[String, Array]',
    'Swaps upper and lower case (stdlib).',
  ),
  suffix: doc(
    'suffix(Collection $collection, String $suffix = undef) -> Collection',
    'Puts the text after each element or hash key (stdlib).',
  ),
  // biome-ignore lint/suspicious/noThenProperty: a Puppet function's name in a plain table, never awaited
  then: doc('then(Any $value) |$value| -> Any', "The block's result for a value that is not undef."),
  to_bytes: doc(
    'to_bytes(Variant[Numeric, String] $size) -> Numeric',
    "A size such as '4 kB' or '1.5G' in bytes (stdlib).",
  ),
  to_json: doc('to_json(Any $data) -> String', 'The data as JSON (stdlib).'),
  to_json_pretty: doc(
    'to_json_pretty(Any $data, Boolean $skip_undef = false) -> String',
    'The data as indented JSON (stdlib).',
  ),
  to_python: doc('to_python(Any $object) -> String', 'Deprecated name of stdlib::to_python (stdlib).'),
  to_ruby: doc('to_ruby(Any $object) -> String', 'Deprecated name of stdlib::to_ruby (stdlib).'),
  to_toml: doc('to_toml(Hash $data) -> String', 'Deprecated name of stdlib::to_toml (stdlib).'),
  to_yaml: doc('to_yaml(Any $data) -> String', 'The data as YAML (stdlib).'),
  tree_each: doc('tree_each(Collection $tree) |$path, $value| -> Any', 'Walks nested data depth first.'),
  type: doc(
    "type(Any $value, Enum['detailed', 'reduced', 'generalized'] $mode = 'detailed') -> Type",
    'The type of a value.',
  ),
  type_of: doc('type_of(Any $value) -> Type', 'Deprecated name of stdlib::type_of (stdlib).'),
  union: doc('union(Array *$arrays) -> Array', 'The elements of all the arrays, once each (stdlib).'),
  unique: doc('unique(Iterable $iterable) -> Collection', 'The elements without repetitions.'),
  unix2dos: doc('unix2dos(String $string) -> String', 'Replaces LF line endings with CRLF (stdlib).'),
  unwrap: doc('unwrap(Sensitive $value) -> Any', 'The value inside a Sensitive.'),
  upcase: doc('upcase(String $string) -> String', 'Upper-cases a string (or the strings of an array).'),
  uriescape: doc(
    'uriescape(Variant[String, Array] $value) -> Variant[String, Array]',
    'Percent-encodes the characters a URI may not hold (stdlib).',
  ),
  values: doc('values(Hash $hash) -> Array', 'The values of a hash.'),
  values_at: doc(
    'values_at(Array $array, Variant[Integer, String, Array] $indices) -> Array',
    "The elements at indices or index ranges ('1-3') (stdlib).",
  ),
  versioncmp: doc('versioncmp(String $a, String $b) -> Integer', 'Compares two version strings: -1, 0 or 1.'),
  warning: doc('warning(Any *$values) -> Undef', 'Logs a message at the warning level.'),
  with: doc('with(Any *$args) |*$args| -> Any', 'Calls the block with the arguments.'),
  zip: doc(
    'zip(Array $a, Array $b, Boolean $flatten = false) -> Array',
    'Pairs the elements of two arrays (stdlib).',
  ),
};

export const TYPE_DOCS: Readonly<Record<string, string>> = {
  Any: 'Any value, undef included.',
  Array: 'An array: `Array[T]`, `Array[T, min, max]`.',
  Binary:
    "Bytes: `Binary('aGk=')` (base64), `Binary('hi', '%s')` (a text's UTF-8), `Binary([104, 105])`; prints as base64.",
  Boolean: '`true` or `false`.',
  Callable: 'A function or lambda.',
  Class: 'A class of the catalogue, as a type value: `Class[apache]` (no value is one).',
  Collection: 'An array or a hash: `Collection[min, max]`.',
  Data: 'Values that convert to JSON: scalars, undef, arrays and hashes of them with string keys.',
  Default: 'The `default` keyword.',
  Enum: "One of the strings given: `Enum['a', 'b']`.",
  Float: 'A floating point number: `Float[min, max]`.',
  Hash: 'A hash: `Hash[K, V]`, `Hash[K, V, min, max]`.',
  Init: "What `T.new` accepts: `'1' =~ Init[Integer]`; `Init[Integer, 16]` with new's other arguments; `Init[T](v)` converts.",
  Integer: 'An integer: `Integer[min, max]`.',
  Iterable: 'A value each() can iterate: arrays, hashes, strings, integers, iterators.',
  Iterator: 'What reverse_each() and step() give without a block: a lazy Iterable, no Array (`Iterator[T]`).',
  NotUndef: 'Any value but undef: `NotUndef[T]`.',
  Numeric: 'An Integer or a Float.',
  Optional: 'A value of the type, or undef: `Optional[T]`.',
  Pattern: 'A string matching one of the regexps: `Pattern[/re/]`.',
  Regexp: 'A regular expression.',
  Resource:
    "A resource type, as a type value: `Resource['file']` is `File`, `File['/tmp']` (no value is one).",
  RichData: 'Data and the rich types (Timestamp, SemVer, Type, ...).',
  Runtime: "A value of the runtime's own: `Runtime[ruby, 'Symbol']`, what a YAML values file's `:foo` is.",
  Scalar: 'A string, number, boolean, regexp, timestamp or semver.',
  ScalarData: 'A string, number or boolean.',
  SemVer: 'A semantic version.',
  SemVerRange: 'A range of semantic versions (`SemVerRange("1.x")`).',
  Sensitive: 'A value kept from being printed: `Sensitive[T]`.',
  String: 'A string: `String[min, max]` bounds its length.',
  Struct: "A hash with the keys given: `Struct[{'name' => String, Optional['port'] => Integer}]`.",
  Timespan: 'A duration.',
  Timestamp: 'A point in time.',
  Tuple: 'An array with a type per position: `Tuple[String, Integer]`.',
  Type: 'A type itself: `Type[T]`.',
  Undef: 'Only undef.',
  Variant: 'A value of any of the types: `Variant[String, Integer]`.',
};
