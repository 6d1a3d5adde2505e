/** A layer of a template's inspection (see ../inspect.ts): its files parsed, its partials resolved and checked. */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { TemplateNode } from '../../epp/ast.js';
import { EppError } from '../../epp/errors.js';
import { compileEpp } from '../../epp/index.js';
import {
  analyzeEpp,
  type EppAnalysis,
  type EppCall,
  unknownFunctionProblems,
  unknownVariableProblems,
} from '../static-analysis.js';
import { SettingsInspector } from './setting-parameters.js';

interface ParsedFile {
  readonly source: string;
  readonly ast: TemplateNode | undefined;
  readonly analysis: EppAnalysis | undefined;
  readonly error: string | undefined;
}

/** What callers pass to one partial, gathered over its call sites, for its variable check. */
interface PartialUse {
  readonly keys: Set<string>;
  dynamic: boolean;
}
/**
 * The template's files parsed once each, its partials resolved as `epp()` resolves them, and each partial
 * checked once with what its callers pass.
 */
export abstract class PartialsInspector extends SettingsInspector {
  private readonly parsed = new Map<string, ParsedFile>();
  private readonly uses = new Map<string, PartialUse>();
  protected readonly checked = new Set<string>();

  protected notePartialUse(target: string, call: EppCall): void {
    let use = this.uses.get(target);
    if (!use) {
      use = { keys: new Set(), dynamic: false };
      this.uses.set(target, use);
    }
    if (call.args === undefined) use.dynamic = true;
    else for (const k of call.args.keys()) use.keys.add(k);
  }

  /**
   * Unknown functions and variables in every partial of the template, once each: a partial sees its
   * parameters, or (declaring none) what its callers pass; variables are not checked when that is only
   * known at render time.
   */
  protected checkPartials(): void {
    const partials = new Set<string>(this.uses.keys());
    for (const rel of this.t.partials) {
      if (!rel.endsWith('.epp')) continue;
      const real = this.resolvePartial(rel);
      if (real) partials.add(real);
    }
    for (const target of partials) {
      const parsed = this.parse(target);
      if (!parsed.ast || !parsed.analysis || this.checked.has(target)) continue;
      this.checked.add(target);
      this.problems.push(...unknownFunctionProblems(parsed.analysis, target, parsed.source));
      const use = this.uses.get(target);
      const params = parsed.ast.params?.map((p) => p.name);
      if (!params && (!use || use.dynamic)) continue;
      const visible = new Set(params ?? use?.keys ?? []);
      this.problems.push(
        ...unknownVariableProblems(parsed.analysis, target, parsed.source, {
          visible,
          candidates: [...visible],
          what: params ? 'a parameter of this partial' : 'an argument its callers pass',
        }),
      );
    }
  }

  /** The real path of a partial inside the template directory, as `epp()` resolves it; else undefined. */
  protected resolvePartial(path: string): string | undefined {
    if (isAbsolute(path)) return undefined;
    try {
      const base = realpathSync(this.t.dir);
      const real = realpathSync(resolve(this.t.dir, path));
      const rel = relative(base, real);
      if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
      return statSync(real).isFile() ? real : undefined;
    } catch {
      return undefined;
    }
  }

  protected parse(file: string): ParsedFile {
    let parsed = this.parsed.get(file);
    if (parsed) return parsed;
    let source = '';
    try {
      source = readFileSync(file, 'utf8');
      // Compiled (and cached by content) when rendering already: the cached AST costs nothing here.
      const ast = compileEpp(source, { file, delimiters: this.t.manifest.delimiters }).ast;
      parsed = { source, ast, analysis: analyzeEpp(ast, source), error: undefined };
    } catch (e) {
      const error =
        e instanceof EppError ? `syntax error: ${e.message}` : `cannot read: ${(e as Error).message}`;
      parsed = { source, ast: undefined, analysis: undefined, error };
    }
    this.parsed.set(file, parsed);
    return parsed;
  }
}
