/**
 * The VS Code extension folder (editors/vscode) is what `vsce package` expects: a manifest whose entry
 * and contributed files exist, a client that starts `pantograph lsp`, and a grammar whose patterns are
 * regular expressions (checked as JavaScript ones: TextMate's Oniguruma takes these too).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../editors/vscode');
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));

describe('editors/vscode', () => {
  it('has a manifest vsce can package, pointing at files that exist', () => {
    const manifest = read('package.json');
    for (const key of ['name', 'version', 'publisher', 'engines', 'main', 'license']) {
      expect(manifest).toHaveProperty(key);
    }
    expect(manifest.engines.vscode).toMatch(/^\^1\./);
    expect(existsSync(join(root, manifest.main))).toBe(true);
    for (const grammar of manifest.contributes.grammars)
      expect(existsSync(join(root, grammar.path))).toBe(true);
    for (const language of manifest.contributes.languages) {
      expect(existsSync(join(root, language.configuration))).toBe(true);
    }
    const client = readFileSync(join(root, manifest.main), 'utf8');
    // The project's code runs only in a trusted workspace (`pantograph lsp --trust`).
    expect(client).toContain("vscode.workspace.isTrusted ? ['lsp', '--trust'] : ['lsp']");
    expect(manifest.capabilities.untrustedWorkspaces.supported).toBe('limited');
  });

  it('has an EPP grammar whose patterns compile', () => {
    const grammar = read('syntaxes/epp.tmLanguage.json');
    expect(grammar.scopeName).toBe('text.epp');
    const patterns: string[] = [];
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (typeof node === 'object' && node !== null) {
        for (const [k, v] of Object.entries(node)) {
          if ((k === 'match' || k === 'begin' || k === 'end') && typeof v === 'string') patterns.push(v);
          else collect(v);
        }
      }
    };
    collect(grammar);
    expect(patterns.length).toBeGreaterThan(10);
    for (const p of patterns) expect(() => new RegExp(p)).not.toThrow();
    const variable = patterns.find((p) => p.startsWith('\\$(?:::)?[a-z_]'));
    expect(new RegExp(variable!).exec('<%= $foo::bar %>')?.[0]).toBe('$foo::bar');
  });
});
