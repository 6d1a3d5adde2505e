/**
 * Functions about the template itself rather than about data: fail, assert_type, type, unwrap, getvar,
 * defined, epp, inline_epp and the logging functions (notice, warning, ...).
 *
 * Catalogue functions (include, contain, require, realize, create_resources, tag, lookup) are left out on
 * purpose: a template has no catalogue, so calling one is an unknown-function error.
 */
import type { Node } from '../ast.js';
import { EppEvalError } from '../errors.js';
import { parsePuppet } from '../parser/parser.js';
import { interpolate } from '../runtime/format.js';
import {
  describedTypeName,
  describeMismatch,
  inferGenericType,
  inferReducedType,
  inferType,
  isPuppetType,
  type PType,
  parameterizeType,
  resolveTypeName,
} from '../runtime/types.js';
import {
  DEFAULT,
  float,
  integer,
  PFloat,
  type PHash,
  PRegexp,
  PSensitive,
  PSymbol,
  type Value,
} from '../runtime/values.js';
import { acceptsArgs, argumentMismatch, noMatchingSignature, puppetType, typeLabel } from './arguments.js';
import { blockArity } from './block-arity.js';
import { getValue } from './collections.js';
import { argumentCountText } from './not-iterable.js';
import { type CallContext, defineFunction, type FunctionDef } from './registry.js';
import { rubyToS } from './ruby-text.js';
import { runtime3 } from './runtime3.js';

/** fail() (a Puppet 3 function): Puppet stringifies the arguments with Ruby's to_s and joins them with spaces. */
const fail = runtime3(
  defineFunction('fail', 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
    throw new EppEvalError('EPP_FAIL', args.map(rubyToS).join(' '));
  }),
);

/** Evaluates the literal parts of a type expression: names, `[...]` parameters, numbers, strings, ... */
function typeExpressionValue(node: Node, text: string): Value {
  switch (node.type) {
    case 'TypeRef': {
      const t = resolveTypeName(node.name);
      if (!t) throw new EppEvalError('EPP_UNKNOWN_TYPE', `Unknown type '${node.name}' in '${text}'`);
      return t;
    }
    case 'Access': {
      const target = typeExpressionValue(node.target, text);
      if (!isPuppetType(target)) break;
      return parameterizeType(
        target,
        node.keys.map((k) => typeExpressionValue(k, text)),
      );
    }
    case 'Literal':
      // The AST keeps Integers as bigint and Floats as number: make them values.
      if (typeof node.value === 'bigint') return integer(node.value);
      if (typeof node.value === 'number') return float(node.value);
      return node.value;
    case 'BareWord':
      return node.name;
    case 'Default':
      return DEFAULT;
    case 'Regex':
      return new PRegexp(node.source);
    case 'Paren':
      return typeExpressionValue(node.expr, text);
    case 'Array':
      return node.elements.map((e) => typeExpressionValue(e, text));
    case 'Hash':
      return new Map(
        node.entries.map((e) => [typeExpressionValue(e.key, text), typeExpressionValue(e.value, text)]),
      );
    case 'Unary': {
      const v = node.operator === '-' ? typeExpressionValue(node.operand, text) : undefined;
      if (typeof v === 'number') return integer(-v); // integer(): no -0
      if (typeof v === 'bigint') return integer(-v);
      if (v instanceof PFloat) return float(-v.value);
      break;
    }
  }
  throw new EppEvalError('EPP_UNKNOWN_TYPE', `The string '${text}' is not a type expression`);
}

/** A type given as text (`'Array[String]'`), as assert_type() accepts it. */
function parseTypeText(text: string): PType {
  let body: readonly Node[];
  try {
    body = parsePuppet(text).body;
  } catch {
    throw new EppEvalError('EPP_UNKNOWN_TYPE', `The string '${text}' is not a type expression`);
  }
  const only = body.length === 1 ? body[0] : undefined;
  const t = only ? typeExpressionValue(only, text) : undefined;
  if (isPuppetType(t)) return t;
  throw new EppEvalError('EPP_UNKNOWN_TYPE', `The string '${text}' is not a type expression`);
}

function typeArg(fn: string, v: Value): PType {
  if (isPuppetType(v)) return v;
  if (typeof v === 'string') return parseTypeText(v);
  throw argumentMismatch(fn, 'type', puppetType('Type'), v);
}

const assertType = defineFunction(
  'assert_type',
  2,
  2,
  (_ctx, args, block) => {
    if (!isPuppetType(args[0]) && typeof args[0] !== 'string') {
      const got = describedTypeName(args[0]);
      throw noMatchingSignature('assert_type', [
        [
          '(Type type, Any value, Callable[Type, Type] block?)',
          `parameter 'type' expects a Type value, got ${got}`,
        ],
        [
          '(String type_string, Any value, Callable[Type, Type] block?)',
          `parameter 'type_string' expects a String value, got ${got}`,
        ],
      ]);
    }
    const type = typeArg('assert_type', args[0]);
    const value = args[1];
    if (type.isInstance(value)) return value;
    if (block) {
      blockArity('assert_type', block, 2);
      return block(type, inferType(value));
    }
    const message = describeMismatch(type, value, 'assert_type():');
    // Puppet's `describe_mismatch` strips a lone problem only: several keep the first's leading blank.
    throw new EppEvalError('EPP_TYPE_MISMATCH', message.includes('\n') ? ` ${message}` : message);
  },
  'optional',
);

const typeFn = defineFunction('type', 1, 2, (_ctx, args) => {
  const [value, method = 'detailed'] = args;
  switch (method) {
    case 'detailed':
      return inferType(value);
    case 'reduced':
      return inferReducedType(value);
    case 'generalized':
      // A Symbol keeps its `Runtime[ruby, 'Symbol']` (a generalized Runtime is what messages name).
      return value instanceof PSymbol ? inferReducedType(value) : inferGenericType(value);
    default:
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'type' parameter 'inference_method' expects a match for Enum['detailed', 'generalized', 'reduced'], got ${typeof method === 'string' ? `'${method}'` : typeLabel(method)}`,
      );
  }
});

const unwrap = defineFunction(
  'unwrap',
  1,
  1,
  (_ctx, args, block) => {
    const v = args[0];
    const unwrapped = v instanceof PSensitive ? v.value : v;
    return block ? block(unwrapped) : unwrapped;
  },
  'optional',
);

const VARIABLE_START = /^(?:::)?(?:[a-z]\w*::)*[a-z_]\w*(?:\.|$)/;

/** A variable name as the calling scope knows it: a leading `::` (top scope) is dropped. */
function variableName(name: string): string {
  return name.startsWith('::') ? name.slice(2) : name;
}

/** getvar's dispatch type of its first argument, as Puppet prints it (made on first use). */
let getvarPattern: PType | undefined;

const getvar = defineFunction(
  'getvar',
  1,
  2,
  (ctx: CallContext, args, block) => {
    const [text, fallback] = args;
    // Puppet's `argument_mismatch` handler takes a String only: another value is refused by the pattern.
    if (typeof text !== 'string') {
      getvarPattern ??= puppetType(
        'Pattern',
        new PRegexp(String.raw`\A(?:::)?(?:[a-z]\w*::)*[a-z_]\w*(?:\.|\Z)`),
      );
      throw argumentMismatch('getvar', 'get_string', getvarPattern, text);
    }
    // A block Puppet's dispatch refuses (`Callable[1,1]`) falls to its `argument_mismatch`, as a bad name.
    const blockRefused = block !== undefined && !acceptsArgs(block, 1);
    if (!VARIABLE_START.test(text) || blockRefused) {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        "'getvar' The given string does not start with a valid variable name",
      );
    }
    const m = /^((?:::)?(?:\w+::)*\w+)([\s\S]*)$/.exec(text);
    const name = m?.[1] ?? text;
    let navigation = m?.[2] ?? '';
    if (navigation.startsWith('.')) navigation = navigation.slice(1);
    else if (navigation !== '') {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `First character after var name in get string must be a '.' - got ${navigation[0]}`,
      );
    }
    const found = ctx.lookupVariable(variableName(name));
    if (!found.found) return fallback;
    return getValue(found.value, navigation, fallback, block);
  },
  'optional',
);

/**
 * defined(): `'$name'` asks whether a variable exists (even when it is undef). Any other name asks for a
 * resource type or class, of which a template has none. Type arguments other than resource and class types
 * are refused, as Puppet refuses them.
 */
const defined = defineFunction('defined', 1, Number.POSITIVE_INFINITY, (ctx: CallContext, args) => {
  let answer = false;
  for (const v of args) {
    if (typeof v === 'string') {
      const m = /^\$([\s\S]+)$/.exec(v);
      if (m?.[1] && ctx.lookupVariable(variableName(m[1])).found) answer = true;
      continue;
    }
    throw new EppEvalError(
      'EPP_ARGUMENTS',
      `'defined' parameter 'vals' expects a value of type String, Type[CatalogEntry], or Type[Type], got ${describedTypeName(v)}`,
    );
  }
  return answer;
});

/** The optional parameters hash of epp() and inline_epp(): keys must be plain names. */
/** `Hash[Pattern[/^\w+$/], Any]`: the parameters hash of epp() and inline_epp(). */
let templateArgsType: PType | undefined;

/** The optional parameters hash of epp() and inline_epp(): keys must be plain names. */
function templateArgs(fn: string, v: Value): PHash | undefined {
  if (v === undefined) return undefined;
  templateArgsType ??= puppetType('Hash', puppetType('Pattern', new PRegexp('^\\w+$')), puppetType('Any'));
  if (!templateArgsType.isInstance(v)) throw argumentMismatch(fn, 'parameters', templateArgsType, v);
  return v as PHash;
}

function stringArg(fn: string, param: string, v: Value): string {
  if (typeof v === 'string') return v;
  throw argumentMismatch(fn, param, puppetType('String'), v);
}

const epp = defineFunction('epp', 1, 2, (ctx: CallContext, args) =>
  ctx.renderFile(stringArg('epp', 'path', args[0]), templateArgs('epp', args[1])),
);

const inlineEpp = defineFunction('inline_epp', 1, 2, (ctx: CallContext, args) =>
  ctx.renderInline(stringArg('inline_epp', 'template', args[0]), templateArgs('inline_epp', args[1])),
);

/**
 * call(): calls a function by name with the other arguments and the lambda. (Puppet's other form, which
 * resolves a Deferred, has no use here: a template has no Deferred values.)
 */
const call = defineFunction(
  'call',
  1,
  Number.POSITIVE_INFINITY,
  (ctx: CallContext, [name, ...args], block) => {
    if (typeof name !== 'string') {
      // Puppet's second signature takes a Deferred, which a template cannot make.
      throw noMatchingSignature('call', [
        [
          '(String function_name, Any arguments*, Callable block?)',
          `parameter 'function_name' expects a String value, got ${describedTypeName(name)}`,
        ],
        [
          "(Object[{name => 'Deferred', attributes => {'name' => Pattern[/\\A[$]?[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*\\z/], 'arguments' => {type => Optional[Array], value => undef}}}] deferred)",
          // Its count is judged before its type: `call(true, 1)` has one argument too many for it.
          args.length > 0
            ? argumentCountText({ min: 1, max: 1 }, args.length + 1)
            : `parameter 'deferred' expects a Deferred value, got ${describedTypeName(name)}`,
        ],
      ]);
    }
    return ctx.callFunction(name, args, block);
  },
  'optional',
);

/** The logging functions print their arguments as interpolation does, joined by spaces; they return undef. */
function logFunction(level: string): FunctionDef {
  return defineFunction(level, 0, Number.POSITIVE_INFINITY, (ctx: CallContext, args) => {
    ctx.log(level, args.map(interpolate).join(' '));
    return undefined;
  });
}

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'err', 'alert', 'crit', 'emerg'] as const;

/** How Puppet labels a message of each level it prints at its default level (notice); info and debug: none. */
const LOG_LABELS: Readonly<Record<string, string>> = {
  notice: 'Notice',
  warning: 'Warning',
  err: 'Error',
  alert: 'Alert',
  crit: 'Critical',
  emerg: 'Emergency',
};

/** The label Puppet prints a message of `level` with, or undefined when it does not print it by default. */
export function logLabel(level: string): string | undefined {
  return Object.hasOwn(LOG_LABELS, level) ? LOG_LABELS[level] : undefined;
}

export const miscFunctions: readonly FunctionDef[] = [
  fail,
  assertType,
  typeFn,
  unwrap,
  getvar,
  defined,
  epp,
  inlineEpp,
  call,
  ...LOG_LEVELS.map(logFunction),
];
