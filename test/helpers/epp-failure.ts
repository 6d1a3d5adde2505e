/**
 * The failure of a template rendered with no values, as the tables of Puppet's messages compare it: its
 * message and its line:column. A template that renders is a failed test of its own.
 */
import { EppError, renderEpp } from '../../src/epp/index.js';

export function renderFailure(template: string): { message: string; at: string } {
  try {
    renderEpp(template, {}, { file: 't.epp' });
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    return { message: e.message, at: `${e.line}:${e.column}` };
  }
  throw new Error(`rendered: ${template}`);
}
