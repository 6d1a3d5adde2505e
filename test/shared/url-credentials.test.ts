/**
 * The two views of a location with credentials: masked for messages, without credentials for everything
 * recorded; and which locations hold a secret worth a warning. Credentials are the URL's user
 * information (even where git rejects it: a password holding a `/`) and query parameters named as
 * secrets (security review qa20, item 8).
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
    // A password git rejects the URL for (a `/`, `?` or `#` in it): still masked, up to the last `@`.
    ['https://bot:SeKr/Et2@127.0.0.1:9/x.git', 'https://bot:***@127.0.0.1:9/x.git'],
    ['https://bot:se?cr#et@host/t.git', 'https://bot:***@host/t.git'],
    // ... but a port is no password, and an `@` in a path no credentials.
    ['https://host:8080/path@x.git', 'https://host:8080/path@x.git'],
    ['https://host/org/@scope/t.git', 'https://host/org/@scope/t.git'],
    // Query and fragment parameters named as secrets.
    ['https://host/t.git?access_token=SeKrEt2', 'https://host/t.git?access_token=***'],
    ['https://host/t.git?ref=v1&private_token=S&x=1', 'https://host/t.git?ref=v1&private_token=***&x=1'],
    [
      'https://host/t.git?X-Amz-Signature=S&sig=T#key=U',
      'https://host/t.git?X-Amz-Signature=***&sig=***#key=***',
    ],
    [
      'https://host/t.git?apiKey=S&clientSecret=T&password=U',
      'https://host/t.git?apiKey=***&clientSecret=***&password=***',
    ],
    ['https://host/t.git?monkey=1&design=2&token=', 'https://host/t.git?monkey=1&design=2&token='],
    ['file:///srv/t.git?token=1', 'file:///srv/t.git?token=1'],
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

  it("masks a query token in git's messages, keeping the quotes and colons around the URL", () => {
    expect(
      maskCredentials(
        "git source 'https://h:9/x.git?access_token=SeKrEt2' cannot be fetched: unable to access 'https://h:9/x.git?access_token=SeKrEt2/': Failed",
      ),
    ).toBe(
      "git source 'https://h:9/x.git?access_token=***' cannot be fetched: unable to access 'https://h:9/x.git?access_token=***': Failed",
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
    ['https://bot:SeKr/Et2@127.0.0.1:9/x.git', 'https://127.0.0.1:9/x.git'],
    ['ssh://git:pa/ss@host/t.git', 'ssh://git@host/t.git'],
    ['https://host:8080/path@x.git', 'https://host:8080/path@x.git'],
    ['https://git.example/tpl.git?private_token=SeKrEt3', 'https://git.example/tpl.git'],
    ['https://h/t.git?token=T&ref=v1&sig=S&x=1#access_token=A', 'https://h/t.git?ref=v1&x=1'],
    ['https://h/t.git?ref=v1#frag', 'https://h/t.git?ref=v1#frag'],
  ])('the identity of %s is %s', (location, identity) => {
    expect(withoutCredentials(location)).toBe(identity);
  });

  it('makes a rotated token the same location', () => {
    expect(sameLocation('https://bot:old@host/t.git', 'https://bot:new@host/t.git')).toBe(true);
    expect(sameLocation('https://bot:old@host/t.git', 'https://host/t.git')).toBe(true);
    expect(sameLocation('https://host/t.git', 'https://host/other.git')).toBe(false);
    expect(sameLocation('https://host/t.git?access_token=old', 'https://host/t.git?access_token=new')).toBe(
      true,
    );
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
    ['https://bot:SeKr/Et2@127.0.0.1:9/x.git', true],
    ['https://host:8080/path@x.git', false],
    ['https://git.example/tpl.git?private_token=SeKrEt3', true],
    ['https://git.example/tpl.git?ref=v1&access_token=x', true],
    ['https://git.example/tpl.git?token=', false],
    ['https://git.example/tpl.git?ref=v1', false],
  ])('%s: %s', (location, secret) => {
    expect(holdsSecret(location)).toBe(secret);
  });
});
