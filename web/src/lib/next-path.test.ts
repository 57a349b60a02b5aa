import { describe, expect, it } from 'vitest';
import { nextPath, sameSitePath } from './next-path';
import { withNext } from './with-next';

describe('sameSitePath: where a login or signup may lead', () => {
  it.each(['/checkout', '/course/description?id=0b8e7a52-4a8c-4c47-9a52-6f1d2c3b4a5e', '/courses?search=js#top', '/user/profile'])(
    'accepts a path of this site: %s',
    (path) => {
      expect(sameSitePath(path)).toBe(path);
    },
  );

  it.each([
    ['an absolute URL', 'https://evil.example/checkout'],
    ['a protocol-relative URL', '//evil.example/checkout'],
    ['a backslash the browser reads as a slash', '/\\evil.example'],
    ['a tab inside the slashes', '/\t/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'checkout'],
    ['nothing', ''],
    ['not a string', 42],
    ['the login page itself (a loop)', '/login?next=/checkout'],
    ['the signup page itself (a loop)', '/Signup'],
  ])('refuses %s', (_case, value) => {
    expect(sameSitePath(value)).toBeUndefined();
  });

  it('normalises dot segments, staying on the site', () => {
    expect(sameSitePath('/a/../checkout')).toBe('/checkout');
  });
});

describe('nextPath', () => {
  it('takes ?next= first, then the route guard’s state.from, each only if same-site', () => {
    expect(nextPath('?next=%2Fcheckout', { from: '/user/profile' })).toBe('/checkout');
    expect(nextPath('', { from: '/user/profile' })).toBe('/user/profile');
    expect(nextPath('?next=https%3A%2F%2Fevil.example', { from: '/user/profile' })).toBe('/user/profile');
    expect(nextPath('?next=%2F%2Fevil.example', null)).toBeUndefined();
    expect(nextPath('', { from: 'https://evil.example' })).toBeUndefined();
  });
});

describe('withNext', () => {
  it('carries the destination in the address, encoded, or nothing', () => {
    expect(withNext('/login', '/course/description?id=1')).toEqual({ pathname: '/login', search: '?next=%2Fcourse%2Fdescription%3Fid%3D1' });
    expect(withNext('/Signup', undefined)).toEqual({ pathname: '/Signup', search: '' });
  });
});
