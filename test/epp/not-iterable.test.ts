/**
 * An iteration function given something it cannot iterate fails with Puppet's own message: each dispatch
 * of the function with why it refused the call, at the call's position. Expected: what `puppet epp
 * render` (Puppet 7.23) printed for each template, 2026-11-28 (the conformance cases
 * `error_*_not_iterable` check the first line against the suite's Puppet runs too).
 */
import { describe, expect, it } from 'vitest';
import { renderEpp } from '../../src/epp/index.js';
import { renderFailure } from '../helpers/epp-failure.js';

/** [template, Puppet's message, line:column] */
const PUPPET: readonly (readonly [string, string, string])[] = [
  [
    '<% true.each |$x| { } %>',
    "Error while evaluating a Method call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:8',
  ],
  [
    '<% true.each |$a, $b, $c| { } %>',
    "Error while evaluating a Method call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:8',
  ],
  [
    '<% undef.each |$x| { } %>',
    "Error while evaluating a Method call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Undef\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Undef\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Undef\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Undef",
    '1:9',
  ],
  [
    '<% 1.5.each |$x| { } %>',
    "Error while evaluating a Method call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Float\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Float\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Float\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Float",
    '1:7',
  ],
  [
    '<% true.map |$k, $v| { } %>',
    "Error while evaluating a Method call, The function 'map' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:8',
  ],
  [
    '<% $v = SemVer("1.2.3") %><% $v.filter |$x| { } %>',
    "Error while evaluating a Method call, The function 'filter' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got SemVer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got SemVer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got SemVer\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got SemVer",
    '1:32',
  ],
  [
    '<% true.filter |$x| { } %>',
    "Error while evaluating a Method call, The function 'filter' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:8',
  ],
  [
    '<% true.reduce |$m, $x| { } %>',
    "Error while evaluating a Method call, The function 'reduce' was called with arguments it does not accept. It expects one of:\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Any memo, Callable[2, 2] block)\n    rejected: expects 2 arguments, got 1",
    '1:8',
  ],
  [
    '<% true.reduce(0) |$m, $x| { } %>',
    "Error while evaluating a Method call, The function 'reduce' was called with arguments it does not accept. It expects one of:\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: expects 1 argument, got 2\n  (Iterable enumerable, Any memo, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:15',
  ],
  [
    '<% true.index |$x| { } %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (String str, Variant[String, Regexp] match)\n    rejected: expects 2 arguments, got 1\n  (Iterable enumerable, Any match)\n    rejected: expects 2 arguments, got 1",
    '1:8',
  ],
  [
    '<% true.index("x") %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: expects 1 argument, got 2\n  (Hash hash, Callable[1, 1] block)\n    rejected: expects 1 argument, got 2\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: expects 1 argument, got 2\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: expects 1 argument, got 2\n  (String str, Variant[String, Regexp] match)\n    rejected: parameter 'str' expects a String value, got Boolean\n  (Iterable enumerable, Any match)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:14',
  ],
  [
    '<% true.slice(2) |$x| { } %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:14',
  ],
  [
    '<% $s = true.slice(2) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:19',
  ],
  [
    '<%= true.unique |$x| { $x } %>',
    "Error while evaluating a Method call, The function 'unique' was called with arguments it does not accept. It expects one of:\n  (String string, Callable[String] block?)\n    rejected: parameter 'string' expects a String value, got Boolean\n  (Hash hash, Callable[Any] block?)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Array array, Callable[Any] block?)\n    rejected: parameter 'array' expects an Array value, got Boolean\n  (Iterable iterable, Callable[Any] block?)\n    rejected: parameter 'iterable' expects an Iterable value, got Boolean",
    '1:9',
  ],
  [
    '<% true.reverse_each |$x| { } %>',
    "Error while evaluating a Method call, 'reverse_each' parameter 'iterable' expects an Iterable value, got Boolean",
    '1:8',
  ],
  [
    '<% true.reverse_each %>',
    "Error while evaluating a Method call, 'reverse_each' parameter 'iterable' expects an Iterable value, got Boolean",
    '1:8',
  ],
  [
    '<% true.step(2) |$x| { } %>',
    "Error while evaluating a Method call, 'step' parameter 'iterable' expects an Iterable value, got Boolean",
    '1:13',
  ],
  [
    '<% true.index |$a, $b, $c| { } %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (String str, Variant[String, Regexp] match)\n    rejected: expects 2 arguments, got 1\n  (Iterable enumerable, Any match)\n    rejected: expects 2 arguments, got 1",
    '1:8',
  ],
];

/**
 * A negative Integer: no Iterable value, but its type (`Integer[-3, -3]`) is an Iterable type, so
 * Puppet's describer judges the dispatches taking an Iterable by the block (its arity, a block missing or
 * not expected) and the others by their argument count or type. [template, Puppet's message, line:column]
 * as `puppet epp render` (Puppet 7.23) printed them, session 28.
 */
const NEGATIVE_INTEGER: readonly (readonly [string, string, string])[] = [
  [
    '<% $n = -3 %><% $n.each |$x| { } %>',
    "Error while evaluating a Method call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.each |$k, $v| { } %>',
    "Error while evaluating a Method call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 2",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.each |$a, $b, $c| { } %>',
    "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got 3",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.map |$x| { } %>',
    "Error while evaluating a Method call, The function 'map' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.map |$k, $v| { } %>',
    "Error while evaluating a Method call, The function 'map' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 2",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.filter |$x| { } %>',
    "Error while evaluating a Method call, The function 'filter' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.index |$x| { } %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)\n  (String str, Variant[String, Regexp] match)\n    rejected: expects 2 arguments, got 1\n  (Iterable enumerable, Any match)\n    rejected: expects 2 arguments, got 1",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.index |$k, $v| { } %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 2\n  (String str, Variant[String, Regexp] match)\n    rejected: expects 2 arguments, got 1\n  (Iterable enumerable, Any match)\n    rejected: expects 2 arguments, got 1",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.index(1) %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: expects 1 argument, got 2\n  (Hash hash, Callable[1, 1] block)\n    rejected: expects 1 argument, got 2\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: expects 1 argument, got 2\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: expects 1 argument, got 2\n  (String str, Variant[String, Regexp] match)\n    rejected: parameter 'str' expects a String value, got Integer\n  (Iterable enumerable, Any match)",
    '1:25',
  ],
  [
    '<% $n = -3 %><% $n.reduce |$m, $x| { } %>',
    "Error while evaluating a Method call, 'reduce' expects 2 arguments, got 1",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.reduce(0) |$m, $x| { } %>',
    "Error while evaluating a Method call, 'reduce' expects 1 argument, got 2",
    '1:26',
  ],
  [
    '<% $n = -3 %><% $n.reduce |$m| { } %>',
    "Error while evaluating a Method call, 'reduce' block expects 2 arguments, got 1",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.slice(2) |$x| { } %>',
    "Error while evaluating a Method call, 'slice' parameter 'hash' expects a Hash value, got Integer",
    '1:25',
  ],
  [
    '<% $n = -3 %><% $n.slice(2) %>',
    "Error while evaluating a Method call, 'slice' parameter 'hash' expects a Hash value, got Integer",
    '1:25',
  ],
  [
    '<% $n = -3 %><% $n.unique %>',
    "Error while evaluating a Method call, The function 'unique' was called with arguments it does not accept. It expects one of:\n  (String string, Callable[String] block?)\n    rejected: parameter 'string' expects a String value, got Integer\n  (Hash hash, Callable[Any] block?)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Array array, Callable[Any] block?)\n    rejected: parameter 'array' expects an Array value, got Integer\n  (Iterable iterable, Callable[Any] block?)",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.reverse_each |$x| { } %>',
    "Error while evaluating a Method call, 'reverse_each' does not expect a block",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.reverse_each %>',
    "Error while evaluating a Method call, 'reverse_each' expects a block",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.step(1) |$x| { } %>',
    "Error while evaluating a Method call, 'step' does not expect a block",
    '1:24',
  ],
  ['<% $n = -3 %><% $n.step(1) %>', "Error while evaluating a Method call, 'step' expects a block", '1:24'],
  [
    '<% $n = -3 %><% $n.any |$x| { } %>',
    "Error while evaluating a Method call, The function 'any' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.all |$x| { } %>',
    "Error while evaluating a Method call, The function 'all' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    '1:19',
  ],
  [
    '<% $n = -3 %><%= $n.each |$x| { } %>',
    "Error while evaluating a Method call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    '1:20',
  ],
  [
    '<% each(-3) |$x| { } %>',
    "Error while evaluating a Function Call, The function 'each' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Iterable enumerable, Callable[1, 1] block)",
    '1:4',
  ],
  [
    '<% $n = -3 %><% $n.each || { } %>',
    "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got none",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.map |*$r| { } %>',
    "Error while evaluating a Method call, 'map' block expects between 1 and 2 arguments, got unlimited",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.each |$x, $y = 1| { } %>',
    "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got between 1 and 2",
    '1:19',
  ],
  [
    '<% $n = -3 %><% $n.filter |$k, $v| { } %>',
    "Error while evaluating a Method call, The function 'filter' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Callable[2, 2] block)\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 2",
    '1:19',
  ],
  ['<% $n = -3 %><% $n.each %>', "Error while evaluating a Method call, 'each' expects a block", '1:19'],
  ['<% $n = -3 %><% $n.map %>', "Error while evaluating a Method call, 'map' expects a block", '1:19'],
  [
    '<% $n = -3 %><% $n.index |$a, $b, $c| { } %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 3\n  (Hash hash, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 3\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 3\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 3\n  (String str, Variant[String, Regexp] match)\n    rejected: does not expect a block\n  (Iterable enumerable, Any match)\n    rejected: does not expect a block",
    '1:19',
  ],
  [
    '<% true.any |$x| { } %>',
    "Error while evaluating a Method call, The function 'any' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Hash hash, Callable[1, 1] block)\n    rejected: parameter 'hash' expects a Hash value, got Boolean\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: parameter 'enumerable' expects an Iterable value, got Boolean",
    '1:8',
  ],
];

/**
 * `slice` given an iterable receiver and a size its `Integer[1]` refuses (0, -1, a String, undef): Puppet's
 * describer faults the hash dispatch at its first parameter unless the receiver is a Hash, so only a Hash
 * gets the size's fault alone. Expected: Puppet 7.23's `puppet epp render`, session 29.
 */
const SLICE_SIZE: readonly (readonly [string, string, string])[] = [
  [
    '<% [1,2].slice(0) |$x| { } %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Tuple\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:15',
  ],
  [
    '<% $s = [1,2].slice(-1) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Tuple\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[-1, -1]",
    '1:20',
  ],
  [
    '<% {a=>1}.slice(0) |$x| { } %>',
    "Error while evaluating a Method call, 'slice' parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:16',
  ],
  [
    '<% "ab".slice(0) |$x| { } %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got String\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:14',
  ],
  [
    '<% $s = "ab".slice(-1) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got String\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[-1, -1]",
    '1:19',
  ],
  [
    '<% 3.slice(0) |$x| { } %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:11',
  ],
  [
    '<% $s = 3.slice(-1) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Integer\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[-1, -1]",
    '1:16',
  ],
  [
    '<% [1,2].slice("a") |$x| { } %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Tuple\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer value, got String",
    '1:15',
  ],
  [
    '<% slice([1,2], 0) %>',
    "Error while evaluating a Function Call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Tuple\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:4',
  ],
  [
    '<% $s = Integer[1,3].slice(0) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Type[Integer]\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:27',
  ],
  [
    '<% $s=[1,2].slice(undef) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Tuple\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer value, got Undef",
    '1:18',
  ],
  [
    '<% $s = [].slice(0) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Array\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:17',
  ],
  [
    '<% $s = Enum[a,b].slice(0) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Type[Enum]\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:24',
  ],
];

/**
 * An Iterator receiver is named by its element type as Puppet's Variant `normalize` leaves it: Integer
 * ranges that touch merge, strings become an Enum, versions one SemVer. Puppet merges in one pass that is
 * no fixpoint, and its describer normalizes again each time it merges two mismatches: `slice`'s hash
 * dispatch names `[3,2,1]`'s after one pass (`Variant[Integer[1, 2], Integer[3, 3]]`), `size`'s three
 * dispatches after three (`Integer[1, 3]`). Expected: Puppet 7.23's `puppet epp render`, session 30.
 */
const ITERATOR_LABELS: readonly (readonly [string, string, string])[] = [
  [
    '<%= [1,2].reverse_each.slice(0) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Iterator[Integer]\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:29',
  ],
  [
    '<%= [3,2,1].reverse_each.slice(0) %>',
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Iterator[Variant]\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:31',
  ],
  [
    "<%= ['a','B'].reverse_each.slice(0) %>",
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Iterator[Enum]\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:33',
  ],
  [
    "<%= [SemVer('1.0.0'), SemVer('2.0.0')].reverse_each.slice(0) %>",
    "Error while evaluating a Method call, The function 'slice' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'hash' expects a Hash value, got Iterator[SemVer]\n  (Iterable enumerable, Integer[1] slice_size, Callable block?)\n    rejected: parameter 'slice_size' expects an Integer[1] value, got Integer[0, 0]",
    '1:58',
  ],
  [
    '<%= [1,2,3].reverse_each.size %>',
    "Error while evaluating a Method call, 'size' parameter 'arg' expects a value of type Collection, String, or Binary, got Iterator[Integer]",
    '1:25',
  ],
  [
    '<%= [1,3].reverse_each.size %>',
    "Error while evaluating a Method call, 'size' parameter 'arg' expects a value of type Collection, String, or Binary, got Iterator[Variant]",
    '1:23',
  ],
  [
    "<%= ['a','b','c'].reverse_each.size %>",
    "Error while evaluating a Method call, 'size' parameter 'arg' expects a value of type Collection, String, or Binary, got Iterator[Enum]",
    '1:31',
  ],
];

describe('iteration functions given what they cannot iterate', () => {
  it.each(PUPPET)('%s fails as Puppet does', (template, message, at) => {
    expect(renderFailure(template)).toEqual({ message, at });
  });

  it.each(
    NEGATIVE_INTEGER,
  )('%s fails as Puppet does (a negative Integer; any and all)', (template, message, at) => {
    expect(renderFailure(template)).toEqual({ message, at });
  });

  it.each(SLICE_SIZE)('%s fails as Puppet does (a size slice refuses)', (template, message, at) => {
    expect(renderFailure(template)).toEqual({ message, at });
  });

  it.each(ITERATOR_LABELS)('%s names the Iterator as Puppet does', (template, message, at) => {
    expect(renderFailure(template)).toEqual({ message, at });
  });

  it('checks the receiver before the lambda, as Puppet checks parameters in order; an iterable receiver still gets the lambda error', () => {
    expect(renderFailure('<% [1].each |$a, $b, $c| { } %>').message).toBe(
      "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got 3",
    );
  });
});

describe("tree_each's options, checked against Puppet's OptionsType", () => {
  // Expected: Puppet 7.23's `puppet epp render`, session 30.
  it('reports a lone type mismatch alone: every dispatch refuses it alike', () => {
    expect(renderFailure("<% [1,[2]].tree_each({order => 'bottomup'}) |$p, $v| { } %>")).toEqual({
      message:
        "Error while evaluating a Method call, 'tree_each' parameter 'options' entry 'order' expects an undef value or a match for Enum['breadth_first', 'depth_first'], got 'bottomup'",
      at: '1:21',
    });
  });

  it('lists an unknown key under each of the three dispatches', () => {
    expect(renderFailure('<% [1,[2,[3]]].tree_each({containers => false}) |$v| { } %>')).toEqual({
      message:
        "Error while evaluating a Method call, The function 'tree_each' was called with arguments it does not accept. It expects one of:\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?, Callable[2, 2] block)\n    rejected: parameter 'options' unrecognized key 'containers'\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?, Callable[1, 1] block)\n    rejected: parameter 'options' unrecognized key 'containers'\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?)\n    rejected: parameter 'options' unrecognized key 'containers'",
      at: '1:25',
    });
  });

  it('returns every value breadth first, include_values or not, as Puppet does', () => {
    expect(
      renderEpp(
        "<% [1,[2,[3]]].tree_each({include_values => false, order => 'breadth_first'}) |$v| { %><%= $v %>;<% } %>",
        {},
      ),
    ).toBe('[1, [2, [3]]];1;[2, [3]];2;[3];3;');
  });
});
