import { MAX_WEBHOOK_URL_LENGTH } from '@pp/contracts';
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

  it('given a URL within the limit as given but past it once its characters outside ASCII are encoded, then it is refused before any lookup; at the limit encoded, it is registered as encoded', async () => {
    const base = 'https://8.8.8.8/';
    const euros = await register(base + '€'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length));
    expect(euros).toEqual({
      answer: `Validation failed: url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once encoded (characters outside ASCII count as their %XX escapes)`,
      logged: [],
    });
    const fits = base + '€'.repeat(Math.floor((MAX_WEBHOOK_URL_LENGTH - base.length) / 9));
    const stored = await checkEndpointUrl(fits, false, false);
    expect(stored.length).toBeLessThanOrEqual(MAX_WEBHOOK_URL_LENGTH);
    expect(stored).toContain('%E2%82%AC');
  });
});
