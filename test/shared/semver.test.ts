import { describe, expect, it } from 'vitest';
import { satisfies } from '../../src/shared/semver.js';

describe('satisfies (template.json requires)', () => {
  it.each([
    ['0.1.0', '>=0.1.0 <1.0.0', true],
    ['1.0.0', '>=0.1.0 <1.0.0', false],
    ['0.1.0', '^0.1.0', true],
    ['0.2.0', '^0.1.0', false],
    ['1.4.2', '^1.2', true],
    ['2.0.0', '^1.2', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['1.7.0', '1.x', true],
    ['2.0.0', '1.x || 2.x', true],
    ['3.0.0', '1.x || 2.x', false],
    ['0.1.0', '*', true],
    ['0.1.0', '0.1.0', true],
    ['0.1.1', '= 0.1.0', false],
    ['1.0.0-beta.1', '>=1.0.0', false],
    ['1.0.0', '> 0.9', true],
    ['0.9.5', '> 0.9', false],
  ])('%s in %s: %s', (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it('says when a range cannot be read', () => {
    expect(satisfies('1.0.0', '>= banana')).toBeUndefined();
  });
});
