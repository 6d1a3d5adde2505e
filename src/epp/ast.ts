/**
 * The EPP abstract syntax tree: a discriminated union on `type`. Every node carries `start` and `end`
 * offsets into the template source, so any error can point at the text that caused it.
 */

export interface NodeBase {
  readonly start: number;
  readonly end: number;
}

/** A whole template: optional parameter list, then a body of statements (text, renders and code). */
export interface TemplateNode extends NodeBase {
  readonly type: 'Template';
  readonly params: readonly ParameterNode[] | undefined;
  readonly body: readonly Node[];
  /** What Puppet's lexer warns of (an escape a double-quoted string does not know); absent when nothing. */
  readonly warnings?: readonly SyntaxWarning[];
}

/** A warning about the template's text, found while reading it; each render reports it, as Puppet's parse does. */
export interface SyntaxWarning extends NodeBase {
  readonly code: 'EPP_UNRECOGNIZED_ESCAPE' | 'EPP_TEXT_DROPPED' | 'EPP_DUPLICATE_KEY';
  readonly message: string;
}

export interface ParameterNode extends NodeBase {
  readonly type: 'Parameter';
  readonly name: string;
  /** Where `$name` starts (after the type, if any): Puppet points there at a parameter without a value. */
  readonly nameStart: number;
  /** Type expression, or undefined for `Any`. */
  readonly valueType: Node | undefined;
  readonly defaultValue: Node | undefined;
  /** `*$rest` (lambdas only). */
  readonly captureRest: boolean;
}

/** Literal template text (trims and `<%%` already applied). */
export interface TextNode extends NodeBase {
  readonly type: 'Text';
  readonly value: string;
}

/** `<%= expr %>`. */
export interface RenderNode extends NodeBase {
  readonly type: 'Render';
  readonly expr: Node;
}

export interface LiteralNode extends NodeBase {
  readonly type: 'Literal';
  /** Strings, booleans, undef (`undefined`), integers (`bigint`) and floats (`number`). */
  readonly value: string | boolean | bigint | number | undefined;
}

export interface DefaultNode extends NodeBase {
  readonly type: 'Default';
}

/** A bare word (`foo`, `foo::bar`) used as a value: Puppet treats it as a string. */
export interface BareWordNode extends NodeBase {
  readonly type: 'BareWord';
  readonly name: string;
}

/** A capitalised name (`Integer`, `Foo::Bar`): a type reference. */
export interface TypeRefNode extends NodeBase {
  readonly type: 'TypeRef';
  readonly name: string;
}

export interface RegexNode extends NodeBase {
  readonly type: 'Regex';
  readonly source: string;
}

/** A double-quoted string or heredoc with interpolation: parts are text or expressions. */
export interface InterpolatedNode extends NodeBase {
  readonly type: 'Interpolated';
  readonly parts: readonly (string | Node)[];
  /** A heredoc's declared syntax that Puppet checks (`@("END":json)`): its text is checked when evaluated. */
  readonly syntax?: ProducedTextSyntax;
}

/** The syntax a heredoc's text must have, and the offset where the text begins (where errors point). */
export interface ProducedTextSyntax {
  readonly name: string;
  readonly textStart: number;
}

export interface VariableNode extends NodeBase {
  readonly type: 'Variable';
  /** Without `$`; a leading `::` (top scope) is kept. Numeric names (`0`, `1`) are match captures. */
  readonly name: string;
}

export interface ArrayNode extends NodeBase {
  readonly type: 'Array';
  readonly elements: readonly Node[];
}

export interface HashNode extends NodeBase {
  readonly type: 'Hash';
  readonly entries: readonly { readonly key: Node; readonly value: Node }[];
}

export interface AccessNode extends NodeBase {
  readonly type: 'Access';
  readonly target: Node;
  readonly keys: readonly Node[];
}

export type BinaryOperator =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '<<'
  | '>>'
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '=~'
  | '!~'
  | 'in';

export interface BinaryNode extends NodeBase {
  readonly type: 'Binary';
  readonly operator: BinaryOperator;
  readonly left: Node;
  readonly right: Node;
  /** Offset of the operator, for error positions. */
  readonly operatorStart: number;
}

export interface LogicalNode extends NodeBase {
  readonly type: 'Logical';
  readonly operator: 'and' | 'or';
  readonly left: Node;
  readonly right: Node;
  /** Where the operator starts: Puppet places the expression there. */
  readonly operatorStart: number;
}

export interface UnaryNode extends NodeBase {
  readonly type: 'Unary';
  readonly operator: '!' | '-' | '*';
  readonly operand: Node;
}

export interface AssignmentNode extends NodeBase {
  readonly type: 'Assignment';
  /** A variable, or an array of variables for destructuring. */
  readonly target: VariableNode | ArrayNode;
  readonly value: Node;
  /** Offset of its `=`, where Puppet places an assignment and its errors. */
  readonly operatorStart: number;
}

export interface LambdaNode extends NodeBase {
  readonly type: 'Lambda';
  readonly params: readonly ParameterNode[];
  readonly body: readonly Node[];
}

/** `name(args) |params| { }` or a statement call `name arg`. */
export interface CallNode extends NodeBase {
  readonly type: 'Call';
  readonly name: string;
  readonly args: readonly Node[];
  readonly lambda: LambdaNode | undefined;
}

/** `receiver.name(args) |params| { }`: a call with the receiver as first argument. */
export interface MethodCallNode extends NodeBase {
  readonly type: 'MethodCall';
  readonly receiver: Node;
  readonly name: string;
  /** Where the name after the dot starts (navigation, the language server). */
  readonly nameStart: number;
  /** Where Puppet places the call, and its errors (see `callSpan`): its `(`, or its `.` without one. */
  readonly callStart: number;
  readonly args: readonly Node[];
  readonly lambda: LambdaNode | undefined;
}

/** `Type(args)` / `Type.new(args)`: Puppet's `new`. */
export interface NewNode extends NodeBase {
  readonly type: 'New';
  readonly typeExpr: Node;
  /** `Type.new(...)`, a method call: its `(` or `.` (see `callStart` of a method call); absent for `Type(...)`. */
  readonly callStart?: number;
  readonly args: readonly Node[];
  readonly lambda: LambdaNode | undefined;
}

export interface IfNode extends NodeBase {
  readonly type: 'If';
  /** `unless` inverts the test. */
  readonly negate: boolean;
  readonly test: Node;
  readonly then: readonly Node[];
  /** `elsif` is an `If` node alone in `otherwise`. */
  readonly otherwise: readonly Node[] | undefined;
}

export interface CaseOption {
  readonly values: readonly Node[];
  readonly body: readonly Node[];
}

export interface CaseNode extends NodeBase {
  readonly type: 'Case';
  readonly test: Node;
  readonly options: readonly CaseOption[];
}

export interface SelectorNode extends NodeBase {
  readonly type: 'Selector';
  readonly test: Node;
  readonly entries: readonly { readonly key: Node; readonly value: Node }[];
}

/** A parenthesised expression (kept so that `(...)` positions and precedence are visible in dumps). */
export interface ParenNode extends NodeBase {
  readonly type: 'Paren';
  readonly expr: Node;
}

/** A `{ ... }` block of statements whose value is the last one (e.g. a case option body). */
export interface BlockNode extends NodeBase {
  readonly type: 'Block';
  readonly body: readonly Node[];
}

/**
 * A resource body with a title after an expression (`x<% { 'a': } %>`): Puppet's parser makes the
 * expression the resource's type, and its evaluator refuses it once evaluated ("Illegal Resource Type
 * expression"). Only the type expression is kept: a template never gets further.
 */
export interface ResourceNode extends NodeBase {
  readonly type: 'Resource';
  readonly typeExpr: Node;
}

/**
 * A `class`, `define` or `node` in a template: Puppet parses it and its validation refuses it, after
 * checking its body too. Kept only for that: a template that holds one is never compiled.
 */
export interface DefinitionNode extends NodeBase {
  readonly type: 'Definition';
  readonly keyword: 'class' | 'define' | 'node';
  readonly body: readonly Node[];
}

export type Node =
  | ResourceNode
  | DefinitionNode
  | TextNode
  | RenderNode
  | LiteralNode
  | DefaultNode
  | BareWordNode
  | TypeRefNode
  | RegexNode
  | InterpolatedNode
  | VariableNode
  | ArrayNode
  | HashNode
  | AccessNode
  | BinaryNode
  | LogicalNode
  | UnaryNode
  | AssignmentNode
  | LambdaNode
  | CallNode
  | MethodCallNode
  | NewNode
  | IfNode
  | CaseNode
  | SelectorNode
  | ParenNode
  | BlockNode;
