import { join } from 'node:path';

/*
 * `npm run cli -- …` (cli.js): which CLI a command line goes to, the merchant's (the SDK's pp-checkout) or the
 * operator's (the gateway's cli.js), read by its command word wherever the options put it.
 */

/* eslint-disable @typescript-eslint/no-require-imports -- the launcher is plain CommonJS */
const launcher = require('./cli') as {
  commandWord: (args: string[]) => string | undefined;
  isMerchantCommand: (args: string[]) => boolean;
  VALUELESS_OPTIONS: ReadonlySet<string>;
};
/** The SDK CLI's own argument parser, as the launcher runs it: built (Jest's global set-up builds dist/ first). */
const sdkArgs = require(join(__dirname, '..', '..', 'dist', 'libs', 'sdk', 'src', 'cli', 'args.js')) as {
  VALUELESS_OPTIONS: readonly string[];
  parseArgs: (argv: readonly string[]) => { positionals: string[] };
};
/* eslint-enable @typescript-eslint/no-require-imports */

describe('npm run cli', () => {
  it.each([
    [['sessions', 'get', 'cs_1'], 'sessions'],
    [['--api-key', 'pp_live_test_x', 'sessions', 'get', 'cs_1'], 'sessions'],
    [['--api-key=pp_live_test_x', 'payments', 'list'], 'payments'],
    [['--json', 'events', 'list'], 'events'],
    [['--api-base', 'https://gateway.example', '--print-secret', 'listen'], 'listen'],
    [['--api-key-file', '/dev/stdin', '--json', 'trigger', 'payment.confirmed'], 'trigger'],
    [['--', 'events', 'list'], 'events'],
    // A no-op the SDK CLI still accepts for older scripts: not an option taking `payments` as its value.
    [['--no-color', 'payments', 'list'], 'payments'],
    [['merchant:create', '--name', 'Shop', '--email', 'a@example.com'], 'merchant:create'],
    [['--help'], undefined],
    [['--api-key', 'pp_live_test_x'], undefined],
    [[], undefined],
  ])('reads the command word of %j as the SDK CLI does: %s', (args, word) => {
    expect(launcher.commandWord(args)).toBe(word);
  });

  it.each([
    [['--api-key', 'pp_live_test_x', 'sessions', 'get', 'cs_1']],
    [['--json', 'listen', '--print-secret']],
    [['login', '--key', 'pp_live_test_x']],
    [['--no-color', 'payments', 'list']],
    [['--help']],
    [[]],
    // A one-dash option is a word to the SDK CLI, which refuses it with a hint (and without printing the key).
    [['-api-key', 'pp_live_test_x', 'sessions', 'get', 'cs_1']],
  ])('sends %j to the merchant CLI', (args) => {
    expect(launcher.isMerchantCommand(args)).toBe(true);
  });

  it.each([[['merchant:create', '--name', 'Shop']], [['demo:seed', '--out', '.dev/demo.json']], [['platform-admin:remove', '--email', 'ops@example.com']]])(
    'sends %j to the operator CLI',
    (args) => {
      expect(launcher.isMerchantCommand(args)).toBe(false);
    },
  );

  it('knows the same value-less options as the SDK CLI, so it finds the word the SDK CLI takes for the command', () => {
    expect([...launcher.VALUELESS_OPTIONS].sort()).toEqual([...sdkArgs.VALUELESS_OPTIONS].sort());
    for (const flag of sdkArgs.VALUELESS_OPTIONS) {
      const args = [`--${flag}`, 'events', 'list', '--api-key', 'pp_live_test_x'];
      expect(launcher.commandWord(args)).toBe(sdkArgs.parseArgs(args).positionals[0]);
    }
    const args = ['--api-base', 'http://localhost:3000', '--api-key-file=/run/key', 'payments', 'list'];
    expect(launcher.commandWord(args)).toBe(sdkArgs.parseArgs(args).positionals[0]);
  });
});
