import { roleUrl, serviceRole } from './database-roles';

describe('roleUrl', () => {
  it('given the set-up superuser’s URL, when a service role is asked for, then only the login changes', () => {
    const url = roleUrl('postgres://postgres:secret@db.internal:5433/pp?sslmode=require', serviceRole('ledger'), 'f00d');
    expect(url).toBe('postgres://pp_ledger:f00d@db.internal:5433/pp?sslmode=require');
  });

  it('given a password with URL syntax in it, when it goes into the URL, then it survives the round trip', () => {
    const password = 'a@b:c/d%e?f#g';
    const url = new URL(roleUrl('postgres://postgres@127.0.0.1:5432/pp', 'pp_owner', password));
    expect(url.username).toBe('pp_owner');
    expect(decodeURIComponent(url.password)).toBe(password);
    expect(url.pathname).toBe('/pp');
  });

  it('given no password (local trust authentication), when the URL is made, then it carries none, not the superuser’s', () => {
    expect(roleUrl('postgres://postgres:secret@127.0.0.1:5432/pp', 'pp_gateway')).toBe('postgres://pp_gateway@127.0.0.1:5432/pp');
  });
});
