import { describe, expect, it } from 'vitest';
import { didYouMean, didYouMeanHint, levenshtein } from '../../src/shared/did-you-mean.js';

describe('did-you-mean', () => {
  it('measures edits, a transposition counting one', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('mian', 'main')).toBe(1);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
  });

  it('suggests the closest candidate only when it is close', () => {
    expect(didYouMean('tempaltes', ['templates', 'template_sources', 'purge'])).toBe('templates');
    expect(didYouMean('PURGE', ['templates', 'purge'])).toBe('purge');
    expect(didYouMean('xyz', ['templates', 'purge'])).toBeUndefined();
    expect(didYouMeanHint('purg', ['purge'])).toBe("did you mean 'purge'?");
    expect(didYouMeanHint('zzzz', ['purge'])).toBeUndefined();
  });
});
