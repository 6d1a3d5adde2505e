/**
 * A function called with a block of a parameter count none of its dispatches takes fails with Puppet's
 * own message: one merged text when every dispatch refuses the block alike (`'each' block expects between
 * 1 and 2 arguments, got 3`), else each dispatch with why it refused (`step` and `reverse_each` have one
 * without a block, `index`, `max`, `min` and `tree_each` several). Expected: what `puppet epp render`
 * (Puppet 7.23) printed for each template in session 31 (the conformance cases `error_block_count_*`
 * check the first lines against Puppet runs too).
 */
import { describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';
import { renderFailure } from '../helpers/epp-failure.js';

/** [template, Puppet's message, line:column] */
const PUPPET: readonly (readonly [string, string, string])[] = [
  [
    '<%= [1].all || { true } %>',
    "Error while evaluating a Method call, 'all' block expects between 1 and 2 arguments, got none",
    '1:8',
  ],
  [
    '<%= [1].any |$a,$b,$c| { true } %>',
    "Error while evaluating a Method call, 'any' block expects between 1 and 2 arguments, got 3",
    '1:8',
  ],
  [
    '<%= assert_type(Integer, "x") |$a| { 0 } %>',
    "Error while evaluating a Function Call, 'assert_type' block expects 2 arguments, got 1",
    '1:5',
  ],
  [
    '<%= [1,2,3].each || { 1 } %>',
    "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got none",
    '1:12',
  ],
  [
    '<%= [1,2,3].each |$a, $b, $c| { $a } %>',
    "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got 3",
    '1:12',
  ],
  [
    '<%= {a=>1}.each |$a, $b, $c| { $a } %>',
    "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got 3",
    '1:11',
  ],
  [
    '<%= [1,2,3].each |$a, $b, $c, *$d| { $a } %>',
    "Error while evaluating a Method call, 'each' block expects between 1 and 2 arguments, got at least 3",
    '1:12',
  ],
  [
    '<%= [1,2,3].filter || { true } %>',
    "Error while evaluating a Method call, 'filter' block expects between 1 and 2 arguments, got none",
    '1:12',
  ],
  [
    '<%= get([1],"0") |$a,$b| { 0 } %>',
    "Error while evaluating a Function Call, 'get' block expects 1 argument, got 2",
    '1:5',
  ],
  [
    '<%= getvar("x") |$a,$b| { 0 } %>',
    "Error while evaluating a Function Call, 'getvar' The given string does not start with a valid variable name",
    '1:5',
  ],
  [
    '<%= getvar("1x") %>',
    "Error while evaluating a Function Call, 'getvar' The given string does not start with a valid variable name",
    '1:5',
  ],
  [
    '<%= getvar("x", 1) |$a,$b| { 0 } %>',
    "Error while evaluating a Function Call, 'getvar' The given string does not start with a valid variable name",
    '1:5',
  ],
  [
    '<%= [1,2].index |$a, $b, $c| { true } %>',
    "Error while evaluating a Method call, The function 'index' was called with arguments it does not accept. It expects one of:\n  (Hash hash, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 3\n  (Hash hash, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 3\n  (Iterable enumerable, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 3\n  (Iterable enumerable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 3\n  (String str, Variant[String, Regexp] match)\n    rejected: does not expect a block\n  (Iterable enumerable, Any match)\n    rejected: does not expect a block",
    '1:10',
  ],
  [
    '<%= undef.lest |$a| { $a } %>',
    "Error while evaluating a Method call, 'lest' block expects no arguments, got 1",
    '1:10',
  ],
  [
    '<%= {a=>1}.map || { 1 } %>',
    "Error while evaluating a Method call, 'map' block expects between 1 and 2 arguments, got none",
    '1:11',
  ],
  [
    '<%= [1,2,3].map |$a, $b, $c| { $a } %>',
    "Error while evaluating a Method call, 'map' block expects between 1 and 2 arguments, got 3",
    '1:12',
  ],
  [
    '<%= [1,2].max |$a,$b,$c| { 0 } %>',
    "Error while evaluating a Method call, The function 'max' was called with arguments it does not accept. It expects one of:\n  (Numeric values*)\n    rejected: does not expect a block\n  (String values*)\n    rejected: does not expect a block\n  (Array[Numeric] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 3\n  (Array[String] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 3\n  (Array values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 3\n  (Any values*, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 3\n  (Any values*)\n    rejected: does not expect a block",
    '1:10',
  ],
  [
    '<%= max(1,2) |$a| { 0 } %>',
    "Error while evaluating a Function Call, The function 'max' was called with arguments it does not accept. It expects one of:\n  (Numeric values*)\n    rejected: does not expect a block\n  (String values*)\n    rejected: does not expect a block\n  (Array[Numeric] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 1\n  (Array[String] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 1\n  (Array values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 1\n  (Any values*, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 1\n  (Any values*)\n    rejected: does not expect a block",
    '1:5',
  ],
  [
    '<%= [1,2].min |$a,$b,$c| { 0 } %>',
    "Error while evaluating a Method call, The function 'min' was called with arguments it does not accept. It expects one of:\n  (Numeric values*)\n    rejected: does not expect a block\n  (String values*)\n    rejected: does not expect a block\n  (Array[Numeric] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 3\n  (Array[String] values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 3\n  (Array values, Callable[2, 2] block?)\n    rejected: block expects 2 arguments, got 3\n  (Any values*, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 3\n  (Any values*)\n    rejected: does not expect a block",
    '1:10',
  ],
  [
    '<%= [1,2,3].reverse_each || { 1 } %>',
    "Error while evaluating a Method call, The function 'reverse_each' was called with arguments it does not accept. It expects one of:\n  (Iterable iterable)\n    rejected: does not expect a block\n  (Iterable iterable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got none",
    '1:12',
  ],
  [
    '<%= [1,2,3].reverse_each |$a, $b| { $a } %>',
    "Error while evaluating a Method call, The function 'reverse_each' was called with arguments it does not accept. It expects one of:\n  (Iterable iterable)\n    rejected: does not expect a block\n  (Iterable iterable, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 2",
    '1:12',
  ],
  [
    '<%= [1,2,3].reduce(0) |$a| { $a } %>',
    "Error while evaluating a Method call, 'reduce' block expects 2 arguments, got 1",
    '1:19',
  ],
  [
    '<%= [1,2,3].reduce |$a, $b, $c| { $a } %>',
    "Error while evaluating a Method call, 'reduce' block expects 2 arguments, got 3",
    '1:12',
  ],
  [
    '<%= [1,2].sort |$a| { 0 } %>',
    "Error while evaluating a Method call, 'sort' block expects 2 arguments, got 1",
    '1:10',
  ],
  [
    '<%= [1,2,3].step(1) || { 1 } %>',
    "Error while evaluating a Method call, The function 'step' was called with arguments it does not accept. It expects one of:\n  (Iterable iterable, Integer[1] step)\n    rejected: does not expect a block\n  (Iterable iterable, Integer[1] step, Callable[1, 1] block)\n    rejected: block expects 1 argument, got none",
    '1:17',
  ],
  [
    '<%= [1,2,3].step(1) |$a, $b, $c| { $a } %>',
    "Error while evaluating a Method call, The function 'step' was called with arguments it does not accept. It expects one of:\n  (Iterable iterable, Integer[1] step)\n    rejected: does not expect a block\n  (Iterable iterable, Integer[1] step, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 3",
    '1:17',
  ],
  [
    '<%= [1,2,3].step(1) |$a, $b, *$r| { $a } %>',
    "Error while evaluating a Method call, The function 'step' was called with arguments it does not accept. It expects one of:\n  (Iterable iterable, Integer[1] step)\n    rejected: does not expect a block\n  (Iterable iterable, Integer[1] step, Callable[1, 1] block)\n    rejected: block expects 1 argument, got at least 2",
    '1:17',
  ],
  [
    '<%= 1.then |$a, $b| { $a } %>',
    "Error while evaluating a Method call, 'then' block expects 1 argument, got 2",
    '1:6',
  ],
  [
    '<%= [1,[2]].tree_each || { 1 } %>',
    "Error while evaluating a Method call, The function 'tree_each' was called with arguments it does not accept. It expects one of:\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got none\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?, Callable[1, 1] block)\n    rejected: block expects 1 argument, got none\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?)\n    rejected: does not expect a block",
    '1:12',
  ],
  [
    '<%= [1,[2]].tree_each |$a, $b, $c| { $a } %>',
    "Error while evaluating a Method call, The function 'tree_each' was called with arguments it does not accept. It expects one of:\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?, Callable[2, 2] block)\n    rejected: block expects 2 arguments, got 3\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?, Callable[1, 1] block)\n    rejected: block expects 1 argument, got 3\n  (Variant[Iterator, Array, Hash, Object] tree, OptionsType = Struct[{'container_type' => Optional[Type], 'include_root' => Optional[Boolean], 'include_containers' => Optional[Boolean], 'include_values' => Optional[Boolean], 'order' => Optional[Enum['breadth_first', 'depth_first']], 'include_refs' => Optional[Boolean]}] options?)\n    rejected: does not expect a block",
    '1:12',
  ],
  [
    '<%= [1,2].unique |$a, $b| { $a } %>',
    "Error while evaluating a Method call, 'unique' block expects 1 argument, got 2",
    '1:10',
  ],
  ['<%= with(1) |$a, $b| { $a } %>', 'Parameter $b is required but no value was given', '1:18'],
];

describe('a block of a parameter count no dispatch takes', () => {
  it.each(PUPPET)('%s fails as Puppet does', (template, message, at) => {
    expect(renderFailure(template)).toEqual({ message, at });
  });

  // Puppet 7.23 crashes here (`undefined method 'parameter_names' for #<Puppet::Pops::Evaluator::PuppetProc
  // ...>`, session 32): its dispatch takes a block of any size, slice.rb then fails building its message.
  // Pantograph says what slice.rb means, where the block is, and what to give instead.
  it.each([
    ['<%= [1,2,3,4].slice(2) |$a, $b, $c| { $a } %>', 2, 3, '1:20'],
    ['<%= {a=>1}.slice(1) |$a, $b, $c| { 1 } %>', 1, 3, '1:17'],
  ])('%s: slice given a block of neither 1 nor the slice size says what to give', (template, size, got, at) => {
    const error = renderError(template);
    expect(error.message).toBe(
      `Error while evaluating a Method call, slice(): block must define one parameter, or the same number of parameters as the given size of the slice (${size}). Block has ${got}`,
    );
    expect(`${error.line}:${error.column}`).toBe(at);
    expect(error.hint).toBe(
      `give the block 1 parameter (each slice as an array) or ${size} (one for each element of a slice)`,
    );
  });

  it('still takes a block with optional or rest parameters that fits', () => {
    expect(renderEpp('<% [1,2,3].step(2) |$a, $b = 1, *$r| { %><%= $a %>,<% } %>', {})).toBe('1,3,');
    expect(renderEpp('<% [1,2,3].reverse_each |*$r| { %><%= $r %><% } %>', {})).toBe('[3][2][1]');
  });
});

function renderError(template: string): EppError {
  try {
    renderEpp(template, {});
  } catch (e) {
    if (e instanceof EppError) return e;
    throw e;
  }
  throw new Error(`rendered: ${template}`);
}
