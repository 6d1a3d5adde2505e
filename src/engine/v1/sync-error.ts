/**
 * A V1 `.sync.yml` that YAML parses but Ruby's YAML refuses to load, as PDK loads it (`YAML.safe_load` with
 * no classes and no symbols): an unquoted `:development:` is a Symbol, `2024-01-01` a Date, an alias may
 * name no anchor or sit inside its own anchor (loaded, then merged without end). PDK stops on it; so does
 * a V1 run, with an error at each value Ruby refuses (Ruby names only the first), each quoting the exception
 * Ruby raises for that value, and what to write instead.
 */
import { problem } from '../errors.js';
import type { Problem } from '../render-plan.js';

/** What the worker found (ruby/pantograph-v1/worker.rb, SyncError and SyncProblem). */
export interface V1SyncError {
  /** Ruby's exception class: Psych::DisallowedClass, Psych::BadAlias, SystemStackError. */
  readonly class: string;
  readonly message: string;
  /** Every node Ruby refuses (Ruby stops at the first); empty when none was found. */
  readonly nodes: readonly V1SyncNode[];
  /** A syntax error's place (1-based), when there is no node to blame. */
  readonly line?: number | null;
  readonly column?: number | null;
}

/** A node of `.sync.yml` to blame; line and column are 1-based. */
export interface V1SyncNode {
  readonly line: number;
  readonly column: number;
  readonly kind: 'symbol' | 'class' | 'unknown_alias' | 'recursive_alias';
  /** The scalar, tag or anchor name at fault. */
  readonly text: string;
  /** What Ruby raises for this node itself (the error's own class and message are the first node's). */
  readonly class?: string | null;
  readonly message?: string | null;
}

/**
 * One error per node, or one at the top of the file (or the syntax error's place) when the worker found
 * none. `tool`: who stops on the file too, PDK or msync.
 */
export function syncProblems(error: V1SyncError, file: string, tool: 'PDK' | 'msync' = 'PDK'): Problem[] {
  const ruby = `${error.class}: ${error.message}`;
  if (error.nodes.length === 0) {
    return [
      problem(
        'error',
        'V1_CONFIG',
        `Ruby's YAML cannot load it: ${ruby}`,
        { file, line: error.line ?? 1, column: error.column ?? 1 },
        `fix the value Ruby names; ${tool} stops on this file too`,
      ),
    ];
  }
  return error.nodes.map((node) => {
    // Each value quotes its own cause: Ruby's error is about the first one only.
    const own = node.class && node.message ? `${node.class}: ${node.message}` : ruby;
    const [message, hint] = words(node, own);
    const at = { file, line: node.line, column: node.column };
    return problem('error', 'V1_CONFIG', message, at, `${hint}; ${tool} stops on this file too`);
  });
}

function words(node: V1SyncNode, ruby: string): [string, string] {
  const text = node.text;
  switch (node.kind) {
    case 'symbol':
      return [
        `\`${text}\` is a Ruby symbol to Ruby's YAML, which loads no symbols (${ruby})`,
        `quote it ('${text}'), as pdk-templates' own examples do`,
      ];
    case 'class':
      return text.startsWith('!') || text.startsWith('tag:')
        ? [
            `the tag \`${text}\` asks Ruby's YAML for an object it does not load here (${ruby})`,
            'remove the tag: settings are strings, numbers, booleans, lists and mappings',
          ]
        : [
            `\`${text}\` is no string to Ruby's YAML, which does not load it here (${ruby})`,
            `quote it ('${text}') to mean the string`,
          ];
    case 'unknown_alias':
      return [
        `the alias *${text} names no anchor set before it (${ruby})`,
        `set the anchor (&${text}) on the value to repeat, above this line, or write the value out here`,
      ];
    case 'recursive_alias':
      return [
        `the alias *${text} is inside the value its anchor names, so the settings contain themselves and merging them never ends (${ruby})`,
        'write the value out here, or move the anchor to a value that does not hold this alias',
      ];
  }
}
