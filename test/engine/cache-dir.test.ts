/** Where Pantograph keeps its cache: the variable a user sets, else the XDG place, else ~/.cache. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheRoot } from '../../src/engine/cache-dir.js';

describe('cacheRoot', () => {
  it('is PANTOGRAPH_CACHE_DIR when set (made absolute), else $XDG_CACHE_HOME/pantograph, else ~/.cache/pantograph', () => {
    expect(cacheRoot({ PANTOGRAPH_CACHE_DIR: 'rel/cache', XDG_CACHE_HOME: '/xdg' })).toBe(
      resolve('rel/cache'),
    );
    expect(cacheRoot({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/pantograph');
    // A relative XDG_CACHE_HOME is invalid by the XDG specification: ignored.
    expect(cacheRoot({ XDG_CACHE_HOME: 'xdg' })).toBe(join(homedir(), '.cache', 'pantograph'));
    expect(cacheRoot({})).toBe(join(homedir(), '.cache', 'pantograph'));
  });
});
