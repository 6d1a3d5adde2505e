/**
 * The two views of a location with credentials: masked for messages, without credentials for everything
 * recorded; and which locations hold a secret worth a warning.
 */
import { describe, expect, it } from 'vitest';
import {
  holdsSecret,
  maskCredentials,
  sameLocation,
  withoutCredentials,
} from '../../src/shared/url-credentials.js';

describe('maskCredentials', () => {
  it.each([
    ['https://bot:ghp_SECRET123@git.example.com/tpl.git', 'https://bot:***@git.example.com/tpl.git'],
    ['https://ghp_SECRET123@github.com/acme/t.git', 'https://***@github.com/acme/t.git'],
    ['ssh://git:hunter2@host:2222/t.git', 'ssh://git:***@host:2222/t.git'],
    ['ssh://git@host/t.git', 'ssh://git@host/t.git'],
    ['git+ssh://git@host/t.git', 'git+ssh://git@host/t.git'],
    ['git@github.com:acme/t.git', 'git@github.com:acme/t.git'],
    ['file:///srv/templates.git', 'file:///srv/templates.git'],
    ['https://git.example.com/tpl.git', 'https://git.example.com/tpl.git'],
    ['../templates', '../templates'],
    // A raw `@` in a password: everything up to the authority's last `@` is credentials.
    ['https://bot:p@ss@host/t.git', 'https://bot:***@host/t.git'],
    // A `'` is legal in a password (RFC 3986), a backtick or backslash taken by git as they are.
    ["https://bot:pa'SECRET@host/t.git", 'https://bot:***@host/t.git'],
    ['https://bot:pa`SE\\CRET@host/t.git', 'https://bot:***@host/t.git'],
  ])('%s is shown as %s', (location, shown) => {
    expect(maskCredentials(location)).toBe(shown);
  });

  it('masks every URL in a message, and nothing else', () => {
    expect(
      maskCredentials(
        "git source 'https://bot:tok1@a.example/x.git' cannot be fetched from https://bot:tok1@a.example/x.git: mail me@example.com",
      ),
    ).toBe(
      "git source 'https://bot:***@a.example/x.git' cannot be fetched from https://bot:***@a.example/x.git: mail me@example.com",
    );
  });
});

describe('withoutCredentials', () => {
  it.each([
    ['https://bot:ghp_SECRET123@git.example.com/tpl.git', 'https://git.example.com/tpl.git'],
    ['https://ghp_SECRET123@github.com/acme/t.git', 'https://github.com/acme/t.git'],
    ['https://alice@git.example.com/tpl.git', 'https://git.example.com/tpl.git'],
    ['ssh://git:hunter2@host/t.git', 'ssh://git@host/t.git'],
    ['ssh://git@host/t.git', 'ssh://git@host/t.git'],
    ['git@github.com:acme/t.git', 'git@github.com:acme/t.git'],
    ['file:///srv/templates.git', 'file:///srv/templates.git'],
    ['/srv/templates', '/srv/templates'],
    ["https://bot:pa'SECRET@git.example.com/tpl.git", 'https://git.example.com/tpl.git'],
  ])('the identity of %s is %s', (location, identity) => {
    expect(withoutCredentials(location)).toBe(identity);
  });

  it('makes a rotated token the same location', () => {
    expect(sameLocation('https://bot:old@host/t.git', 'https://bot:new@host/t.git')).toBe(true);
    expect(sameLocation('https://bot:old@host/t.git', 'https://host/t.git')).toBe(true);
    expect(sameLocation('https://host/t.git', 'https://host/other.git')).toBe(false);
  });
});

describe('holdsSecret', () => {
  it.each([
    ['https://bot:ghp_SECRET123@git.example.com/tpl.git', true],
    ['ssh://git:hunter2@host/t.git', true],
    ['https://ghp_0123456789abcdefABCDEF0123456789abcd@github.com/a/t.git', true],
    ['https://glpat-xxxxxxxxxxxxxxxxxxxx@gitlab.com/a/t.git', true],
    ["https://bot:pa'SECRET@git.example.com/tpl.git", true],
    ['https://oauth2:glpat-xxxxxxxxxxxx@gitlab.com/a/t.git', true],
    ['https://alice@git.example.com/tpl.git', false],
    ['https://alice:@git.example.com/tpl.git', false],
    ['ssh://git@host/t.git', false],
    ['git@github.com:acme/t.git', false],
    ['file:///srv/templates.git', false],
    ['https://git.example.com/tpl.git', false],
  ])('%s: %s', (location, secret) => {
    expect(holdsSecret(location)).toBe(secret);
  });
});
