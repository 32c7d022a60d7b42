#!/usr/bin/env node
import { redactSecrets } from '../redact-secrets';
import { parseArgs, refuseUnknownOptions, UsageError } from './args';
import { COMMANDS, describeError, findCommand } from './commands';
import { consoleOutput } from './output';

/*
 * pp-checkout: the merchant's CLI (`npm run cli -- <command>` in this repo).
 * The key comes from --api-key, --api-key-file, PP_API_KEY or the file
 * `login` writes; the gateway from --api-base, PP_API_BASE or that file
 * (default http://localhost:3000), a saved key only to the gateway saved
 * with it (config.ts). --json prints NDJSON. Exit status: 0 done, 1
 * failed, 2 wrong usage.
 */

const usage = () =>
  [
    'Usage: pp-checkout <command> [--api-key <key> | --api-key-file <path>] [--api-base <url>] [--json]',
    '',
    ...Object.values(COMMANDS).map((command) => `  ${command.usage}`),
    '',
    'The key: --api-key, else --api-key-file <path> (a file holding just the key; - reads it from stdin, so a key',
    'piped in stays off the command line), else PP_API_KEY, else the one `login` saved (in $PP_CONFIG_FILE, else',
    '$XDG_CONFIG_HOME/pp-checkout/config.json, ~/.config by default).',
    'The gateway: --api-base, else PP_API_BASE, else the one `login` saved with the key, default http://localhost:3000.',
    'A saved key goes to no other gateway: a PP_API_BASE naming another is refused; --api-base overrides on purpose.',
  ].join('\n');

/** The words that named no command, as the refusal repeats them: a key typed among them (`-api-key pp_live_…`, one dash) is not printed back. */
function unknownCommand(positionals: readonly string[]): UsageError {
  const shown = redactSecrets(positionals.slice(0, 2).join(' '));
  const dashed = positionals.slice(0, 2).some((word) => /^-[^-]/.test(word));
  return new UsageError(`Unknown command ${shown}${dashed ? ' (options start with two dashes: --api-key, not -api-key)' : ''}`);
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  // Handling these turns off Node's own exit on them: every command passes the signal to its requests, so the first
  // Ctrl-C stops the one under way (an AbortedError naming the signal, exit status 1; listen and events tail end, 0),
  // and a second, the handlers gone, exits at once.
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => controller.abort(new Error(signal));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const args = parseArgs(argv);
    const found = findCommand(args.positionals);
    const asksHelp = args.options.has('help') || (args.positionals.length === 1 && args.positionals[0] === 'help');
    if (!found && args.positionals.length > 0 && !asksHelp) throw unknownCommand(args.positionals);
    if (!found || asksHelp) {
      process.stdout.write(`${usage()}\n`);
      return 0;
    }
    refuseUnknownOptions(args, found.command.options);
    await found.command.run({ args, env, output: consoleOutput(args.options.get('json') === true), signal: controller.signal });
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${describeError(error)}\n`);
    if (error instanceof UsageError) {
      process.stderr.write(`\n${usage()}\n`);
      return 2;
    }
    return 1;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
