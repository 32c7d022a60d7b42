import { checkEndpointUrl } from './endpoint-url.policy';

/** What registering `url` answers (its error's message), and the reasons given to the server's log. */
const register = async (url: string) => {
  const logged: Array<[host: string, reason: string]> = [];
  const answer = await checkEndpointUrl(url, false, false, (host, reason) => logged.push([host, reason])).then(
    () => 'registered',
    (error: Error) => error.message,
  );
  return { answer, logged };
};

describe('checkEndpointUrl', () => {
  it('given a name that does not resolve and one that resolves to a private address, when each is registered, then both get the same answer and only the log tells them apart', async () => {
    const missing = await register('https://no-such-host.invalid/hook');
    const internal = await register('https://localhost/hook');
    const literal = await register('https://10.0.0.5/hook');

    const answer = 'Validation failed: url is not allowed: the host does not resolve to a public internet address';
    expect([missing.answer, internal.answer, literal.answer]).toEqual([answer, answer, answer]);
    expect(missing.logged).toEqual([['no-such-host.invalid', 'the name has no address (or DNS did not answer)']]);
    expect(internal.logged).toEqual([['localhost', 'resolves to a non-public address (127.0.0.1)']]);
    expect(literal.logged).toEqual([['10.0.0.5', 'resolves to a non-public address (10.0.0.5)']]);
  });

  it('given a public address, when it is registered, then it is accepted and nothing is logged', async () => {
    expect(await register('https://8.8.8.8/hook')).toEqual({ answer: 'registered', logged: [] });
  });
});
