/**
 * What Puppet's errors call the parts of a template: its label provider's words for each kind of node
 * ("This String has no effect", "Illegal attempt to assign to 'an Epp Text'").
 */
import type { Node } from '../ast.js';

/** What Puppet calls a node in its errors (its model label provider's words). */
export function nodeLabel(node: Node): string {
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'string') return 'String';
      // The parser folds `-1` into a literal; Puppet names the minus it was written with.
      if ((typeof node.value === 'bigint' || typeof node.value === 'number') && node.value < 0)
        return 'Unary Minus';
      if (typeof node.value === 'bigint') return 'Literal Integer';
      if (typeof node.value === 'number') return 'Literal Float';
      if (typeof node.value === 'boolean') return 'Boolean';
      return "'undef' expression";
    case 'Default':
      return "'default' expression";
    case 'BareWord':
      return 'Name';
    case 'TypeRef':
      return 'Type-Name';
    case 'Regex':
      return 'Regular Expression';
    case 'Interpolated':
      return 'Double Quoted String';
    case 'Variable':
      return 'Variable';
    case 'Array':
      return 'Array Expression';
    case 'Hash':
      return 'Hash Expression';
    case 'Access':
      return "'[]' expression";
    case 'Binary':
    case 'Logical':
      return `'${node.operator}' expression`;
    case 'Unary':
      return node.operator === '!' ? "'not' expression" : node.operator === '-' ? 'Unary Minus' : 'Unfold';
    case 'Paren':
      return 'Parenthesized Expression';
    case 'Selector':
      return 'Selector Expression';
    case 'If':
      return node.negate ? "'unless' Statement" : "'if' statement";
    case 'Case':
      return "'case' statement";
    case 'Block':
      return 'Block Expression';
    case 'Call':
      return 'Function Call';
    case 'Resource':
      return 'Resource Statement';
    case 'MethodCall':
      return 'Method call';
    case 'New':
      // `Integer('1')` is Puppet's call of a type; `Integer.new('1')` its method call.
      return node.callStart === undefined ? 'Function Call' : 'Method call';
    case 'Text':
      return 'Epp Text';
    case 'Render':
      return 'Epp Interpolated Expression';
    default:
      return 'expression';
  }
}

/**
 * The label with its indefinite article, as Puppet's `a_an`: "an" before a vowel or `y`, a quote before
 * the first letter skipped (`a '==' expression`).
 */
export function nodeLabelWithArticle(node: Node): string {
  const text = nodeLabel(node);
  const first = text[0] === "'" || text[0] === '"' ? text[1] : text[0];
  return `${first !== undefined && 'aeiouy'.includes(first.toLowerCase()) ? 'an' : 'a'} ${text}`;
}
