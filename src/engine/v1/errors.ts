/**
 * Errors of the V1 runner, each carrying where it happened: a template file and line (ERB's own line
 * numbers), or the Ruby worker as a whole. Rendering errors become Problems of the plan; a missing Ruby or
 * a broken worker stops the run (nothing else can be rendered).
 */
import { EngineError, problem } from '../errors.js';
import type { Position } from '../model.js';
import type { Problem } from '../render-plan.js';

/** No `ruby` to run: V1 repositories need the system Ruby; V2 templates do not. */
export class RubyNotFoundError extends EngineError {
  override name = 'RubyNotFoundError';

  constructor(
    readonly executable: string,
    readonly repository: string,
  ) {
    super(
      'V1_RUBY_MISSING',
      `cannot run \`${executable}\`: the V1 template repository ${repository} is rendered with Ruby's ERB, and no Ruby was found`,
      {
        hint:
          'install Ruby (2.7 or newer; e.g. `apt-get install ruby`, `brew install ruby`) or point PANTOGRAPH_RUBY at one; ' +
          'or run `pantograph convert` once to move the project to V2 templates, which need no Ruby',
      },
    );
  }
}

/** The worker stopped, ran out of time, or sent more than allowed; `during` names the file it was on. */
export class RubyWorkerError extends Error {
  override name = 'RubyWorkerError';

  constructor(
    readonly code: 'V1_WORKER' | 'V1_TIME_LIMIT' | 'V1_OUTPUT_LIMIT',
    message: string,
    readonly during?: string,
  ) {
    super(message);
  }
}

/** A template that failed to render (or whose settings could not be computed), at its ERB line. */
export class V1TemplateError extends Error {
  override name = 'V1TemplateError';

  constructor(
    readonly code: 'V1_RENDER' | 'V1_CONFIG' | 'V1_OUTPUT_LIMIT',
    /** The output path (e.g. `Gemfile`). */
    readonly path: string,
    /** Ruby's exception class, e.g. `NoMethodError`. */
    readonly rubyClass: string,
    message: string,
    /** The template file and line Ruby named (ERB's `filename`), when it named one. */
    readonly position: Position | undefined,
    /** Whose rules the run follows, for the hint: PDK's V1 renderer, or modulesync's. */
    readonly tool: 'PDK' | 'msync' = 'PDK',
  ) {
    super(message);
  }

  toProblem(): Problem {
    const hint =
      this.code === 'V1_OUTPUT_LIMIT'
        ? 'a template that builds a huge output; PANTOGRAPH_RUBY_OUTPUT_LIMIT (MB) raises the limit'
        : this.code === 'V1_CONFIG'
          ? `the settings of \`${this.path}\` could not be computed: check its key in .sync.yml (${this.tool} expects a mapping there) and the repository's config_defaults.yml; ${this.tool} fails the same way`
          : this.rubyClass === 'SyntaxError'
            ? `the template itself is broken (Ruby cannot compile its ERB, whatever the settings): fix the template, or report it to the repository's maintainers; meanwhile \`unmanaged: true\` under \`${this.path}\` in .sync.yml leaves the file alone`
            : `the template failed with the settings .sync.yml gives: fix the setting it reads at that line, or set \`unmanaged: true\` under \`${this.path}\` in .sync.yml to leave the file alone; ${this.tool} fails the same way`;
    return problem(
      'error',
      this.code,
      this.code === 'V1_OUTPUT_LIMIT'
        ? `${this.path}: ${this.message}`
        : `${this.path}: ${this.rubyClass}: ${this.message}`,
      this.position,
      hint,
    );
  }
}
