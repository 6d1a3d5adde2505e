/**
 * EPP for CodeMirror: text outside tags as it is; inside `<% %>` (with its trim and comment forms) Puppet's
 * keywords, variables, strings, numbers, types and comments. A stream tokenizer is enough for colouring;
 * errors come from the engine itself, with their exact positions.
 */
import { StreamLanguage, type StringStream } from '@codemirror/language';

interface State {
  /** Inside a tag (`<%`, `<%=`, `<%-`), a comment tag (`<%#`), or text. */
  mode: 'text' | 'code' | 'comment';
  /** Inside a string that runs past the end of a line. */
  quote: '"' | "'" | undefined;
}

const KEYWORDS = new Set([
  'if', 'elsif', 'else', 'unless', 'case', 'default', 'and', 'or', 'in', 'true', 'false', 'undef',
  'function', 'return', 'break', 'next',
]);

export const eppLanguage = StreamLanguage.define<State>({
  name: 'epp',
  startState: () => ({ mode: 'text', quote: undefined }),
  token(stream: StringStream, state: State): string | null {
    if (state.mode === 'text') {
      if (stream.match(/<%%/)) return null;
      if (stream.match(/<%#/)) {
        state.mode = 'comment';
        return 'comment';
      }
      if (stream.match(/<%[=-]?/)) {
        state.mode = 'code';
        return 'meta';
      }
      stream.next();
      while (!stream.eol() && !stream.match(/<%/, false)) stream.next();
      return null;
    }
    if (state.mode === 'comment') {
      if (stream.match(/-?%>/)) {
        state.mode = 'text';
        return 'comment';
      }
      stream.next();
      return 'comment';
    }
    if (state.quote) return string(stream, state);
    if (stream.eatSpace()) return null;
    if (stream.match(/-?%>/)) {
      state.mode = 'text';
      return 'meta';
    }
    if (stream.match(/#.*/)) return 'comment';
    const next = stream.peek();
    if (next === '"' || next === "'") {
      stream.next();
      state.quote = next;
      return string(stream, state);
    }
    if (stream.match(/\$(::)?[a-z_]\w*(::\w+)*/)) return 'variableName';
    if (stream.match(/-?\d+(\.\d+)?([eE][-+]?\d+)?/)) return 'number';
    if (stream.match(/[A-Z]\w*(::[A-Z]\w*)*/)) return 'typeName';
    const word = stream.match(/[a-z_]\w*(::\w+)*/) as RegExpMatchArray | null;
    if (word) return KEYWORDS.has(word[0]) ? 'keyword' : stream.peek() === '(' ? 'builtin' : 'name';
    if (stream.match(/\/(?:\\.|[^/\\\n])+\//)) return 'regexp';
    stream.next();
    return 'operator';
  },
});

function string(stream: StringStream, state: State): string {
  const quote = state.quote!;
  while (!stream.eol()) {
    const c = stream.next();
    if (c === '\\') stream.next();
    else if (c === quote) {
      state.quote = undefined;
      break;
    }
  }
  return 'string';
}
