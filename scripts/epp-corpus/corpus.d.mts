/** Types of corpus.mjs, for the corpus test. */
export interface CorpusCase {
  readonly name: string;
  readonly dir: string;
  /** '' for values.json and expected*.txt, '-2' for the second variant's files. */
  readonly suffix: string;
}
export interface CorpusResult {
  readonly name: string;
  readonly outcome: 'identical' | 'both-error' | 'differing' | 'pantograph-error' | 'puppet-error';
  readonly detail: string;
}
export interface CorpusLibrary {
  renderEpp(source: string, values: unknown, options: object): string;
  fromJs(data: unknown, options?: object): unknown;
}
export const CORPUS: string;
export function corpusCases(): CorpusCase[];
export function compareCase(lib: CorpusLibrary, c: CorpusCase): CorpusResult;
export function compareCorpus(lib: CorpusLibrary): Promise<{ results: CorpusResult[]; figure: string }>;
