import { commandOnlyStatement } from './redis-statement';

describe('the db.statement of a Redis span (commandOnlyStatement)', () => {
  const address = '203.0.113.7';

  it.each([
    ['set', [`pp:gateway:client-budget:address:${address}`, '1', 'EX', '1']],
    ['get', [`pp:dashboard:session:${address}`]],
    ['hset', ['pp:key', 'field', address]],
    ['del', [`a:${address}`, `b:${address}`]],
    ['ping', []],
  ])('given %s, then only the command name is kept', (name, args) => {
    expect(commandOnlyStatement(name, args)).toBe(name);
  });

  it.each([
    ['evalsha', ['0123abcd', 1, `pp:gateway:client-budget:address:${address}`, '1', '1000'], 'evalsha numkeys=1'],
    ['eval', ["return redis.call('INCR', KEYS[1])", '2', `a:${address}`, `b:${address}`], 'eval numkeys=2'],
    ['EVALSHA_RO', ['0123abcd', Buffer.from('0')], 'EVALSHA_RO numkeys=0'],
  ])('given the script command %s, then the name and the number of keys are kept, not the script, its keys or arguments', (name, args, statement) => {
    expect(commandOnlyStatement(name, args)).toBe(statement);
  });

  it('given a script command whose key count is not a count, then only the name is kept', () => {
    expect(commandOnlyStatement('evalsha', ['0123abcd', address])).toBe('evalsha');
    expect(commandOnlyStatement('eval', [])).toBe('eval');
  });
});
