import { describe, expect, it } from 'vitest';
import { ROUTES, routeAt } from '../src/screens';

describe('routeAt (which screen boot starts loading for an address)', () => {
  it('finds the route App renders for an address, the catch-all for unknown ones', () => {
    const path = (pathname: string) => routeAt(pathname).path;
    expect(path('/')).toBe('/');
    expect(path('/products')).toBe('/products');
    expect(path('/products/')).toBe('/products');
    expect(path('/products/0190a000-0000-7000-8000-000000000001')).toBe('/products/:productId');
    expect(path('/exports/templates')).toBe('/exports/templates');
    expect(path('/exports')).toBe('/exports');
    expect(path('/admin/webhooks')).toBe('/admin/webhooks');
    expect(path('/nowhere')).toBe('*');
    expect(path('/products/a/b')).toBe('*');
  });

  it('has one chunk per route and the catch-all last', () => {
    expect(new Set(ROUTES.map((r) => r.screen)).size).toBe(ROUTES.length);
    expect(ROUTES.at(-1)!.path).toBe('*');
  });
});
