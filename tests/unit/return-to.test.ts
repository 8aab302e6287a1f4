import { describe, expect, it } from 'vitest';
import { paths } from '#shared/paths';
import { returnPath } from '../../src/web/lib/return-to';

describe('the page to return to after signing in', () => {
  it('returns to a page of the role’s own area, with its query', () => {
    expect(returnPath('/admin/quote-requests/abc?page=2', 'admin')).toBe('/admin/quote-requests/abc?page=2');
    expect(returnPath('/employee/jobs', 'employee')).toBe('/employee/jobs');
    expect(returnPath('/employee/jobs', 'admin')).toBe('/employee/jobs');
  });

  it('never leaves the site or the role’s area', () => {
    for (const next of [
      null,
      '',
      'https://evil.example/admin',
      '//evil.example/admin',
      '/\\evil.example',
      '/%2F%2Fevil.example',
      'javascript:alert(1)',
      '/login',
      '/admin/../login',
      '/administrator',
    ])
      expect(returnPath(next, 'admin'), String(next)).toBe(paths.admin.dashboard);
    expect(returnPath('/admin/users', 'employee')).toBe(paths.employee.dashboard);
  });

  it('builds the sign-in address that carries the way back', () => {
    expect(paths.loginFor('/admin/jobs/j1?x=1')).toBe('/login?next=%2Fadmin%2Fjobs%2Fj1%3Fx%3D1');
    expect(paths.loginFor('/admin', true)).toBe('/login?next=%2Fadmin&session=ended');
  });
});
