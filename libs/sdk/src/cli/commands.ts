import { CheckoutClient } from '../client';
import { isTestKey } from '../http/api-key-shape';
import { DEFAULT_API_BASE } from '../http/transport';
import type { Event } from '../types';
import { integerOption, metadataOption, type ParsedArgs, stringOption, UsageError } from './args';
import { apiKeyOption, checkedKeyShape, configPath, envApiBase, refuseKeyInClear, resolveApiKey, resolveCredentials, writeConfig } from './config';
import { followEvents } from './event-follower';
import { forwardingSecret, listen, listenStatePath } from './listen';
import { eventTypeOption, eventTypesOption, forwardToOption, intervalOption, paymentStatusOption, sinceOption } from './option-values';
import { type Output, printRecord, printRows } from './output';
import { escapeControls } from './terminal-text';
import { trigger, TRIGGERABLE } from './trigger';

export interface CommandContext {
  args: ParsedArgs;
  env: NodeJS.ProcessEnv;
  output: Output;
  /**
   * Aborted on Ctrl-C (SIGINT) or SIGTERM. Passed to every request: main's handlers turn off Node's own exit on those
   * signals, so a request that did not take it would go on (against a gateway that does not answer, for minutes).
   */
  signal: AbortSignal;
}

interface Command {
  usage: string;
  /** The options it reads besides the global ones (args.ts): any other is refused. */
  options: readonly string[];
  run(context: CommandContext): Promise<void>;
}

const DEFAULT_SHOWN = 10;

/** resolveCredentials, its warnings on stderr. */
const credentialsFor = (context: CommandContext) => resolveCredentials(context.args, context.env, context.output.progress);

const clientFor = (context: CommandContext) => new CheckoutClient(credentialsFor(context));

function positional(context: CommandContext, index: number, what: string): string {
  const value = context.args.positionals[index];
  if (!value) throw new UsageError(`Missing ${what}`);
  return value;
}

function requireTestKey(context: CommandContext, command: string): { apiKey: string; apiBase: string } {
  const credentials = credentialsFor(context);
  refuseLiveKey(credentials.apiKey, command);
  return credentials;
}

function refuseLiveKey(apiKey: string, command: string): void {
  if (!isTestKey(apiKey)) throw new UsageError(`${command} works in test mode only: use a pp_live_test_ key`);
}

/** A URL the payer is sent to: with a test key, a placeholder on this machine will do; with a live key a real payer would land on it, so it must be given. */
function payerUrl(context: CommandContext, apiKey: string, name: 'success-url' | 'cancel-url'): string {
  const given = stringOption(context.args, name);
  if (given !== undefined) return given;
  if (!isTestKey(apiKey)) throw new UsageError('sessions create with a live key needs --success-url and --cancel-url: real payers are sent there (the http://localhost placeholders are for test keys only)');
  return name === 'success-url' ? 'http://localhost/success' : 'http://localhost/cancel';
}

/** An event as a table row: the data fields merchants look for. */
const eventRow = (event: Event) => ({ id: event.id, type: event.type, created_at: event.created_at, reference: event.data.reference, amount: event.data.amount, status: event.data.status });

const pageLimit = (shown: number) => Math.min(Math.max(shown, 1), 50);

export const COMMANDS: Record<string, Command> = {
  login: {
    usage:
      'login [--key <secret key>] [--api-base <url>]   save the key (from --key, --api-key or --api-key-file, else PP_API_KEY, which keeps it out of shell history) ' +
      'and the gateway it is for (--api-base, else PP_API_BASE, else the default) for later commands',
    options: ['key'],
    async run(context) {
      const key = (stringOption(context.args, 'key') ?? apiKeyOption(context.args) ?? context.env.PP_API_KEY)?.trim();
      if (!key || !/^pp_(live_test_|live_|rk_)/.test(key)) throw new UsageError('login needs a secret key (pp_live_test_…, pp_live_… or pp_rk_…) in --key, --api-key, --api-key-file or PP_API_KEY');
      checkedKeyShape(key);
      // Saved with the key, which later goes to no other gateway (resolveCredentials): the one it was logged in for,
      // the default too, since a file naming none is taken for an older CLI's, whose key follows PP_API_BASE.
      const apiBase = stringOption(context.args, 'api-base') ?? envApiBase(context.env) ?? DEFAULT_API_BASE;
      refuseKeyInClear(apiBase, context.env);
      const path = writeConfig(context.env, { api_key: key, api_base: apiBase });
      printRecord(context.output, { saved: path, mode: isTestKey(key) ? 'test' : 'live', gateway: apiBase });
    },
  },

  'sessions create': {
    usage: 'sessions create --amount <cents> [--reference <text>] [--success-url <url>] [--cancel-url <url>] [--metadata k=v,...]   (URLs default to http://localhost/… with a test key; a live key needs both)',
    options: ['amount', 'reference', 'success-url', 'cancel-url', 'metadata'],
    async run(context) {
      const amount = integerOption(context.args, 'amount');
      if (amount === undefined) throw new UsageError('sessions create needs --amount <cents>');
      const metadata = metadataOption(context.args);
      const credentials = credentialsFor(context);
      const successUrl = payerUrl(context, credentials.apiKey, 'success-url');
      const cancelUrl = payerUrl(context, credentials.apiKey, 'cancel-url');
      const session = await new CheckoutClient(credentials).checkoutSessions.create(
        {
          amount,
          currency: 'cad',
          reference: stringOption(context.args, 'reference') ?? `cli-${Date.now()}`,
          success_url: successUrl,
          cancel_url: cancelUrl,
          ...(metadata ? { metadata } : {}),
        },
        { signal: context.signal },
      );
      printRecord(context.output, session);
    },
  },

  'sessions get': {
    usage: 'sessions get <session id>',
    options: [],
    async run(context) {
      printRecord(context.output, await clientFor(context).checkoutSessions.retrieve(positional(context, 2, 'session id'), { signal: context.signal }));
    },
  },

  'payments list': {
    usage: 'payments list [--status <STATUS>] [--reference <text>] [--limit <n>]',
    options: ['status', 'reference', 'limit'],
    async run(context) {
      const shown = integerOption(context.args, 'limit') ?? DEFAULT_SHOWN;
      const payments = await clientFor(context)
        .payments.list(
          {
            limit: pageLimit(shown),
            status: paymentStatusOption(stringOption(context.args, 'status')),
            reference: stringOption(context.args, 'reference'),
          },
          { signal: context.signal },
        )
        .toArray(shown);
      printRows(context.output, payments, ['id', 'status', 'amount', 'sender_name', 'session_id', 'created_at']);
    },
  },

  'events list': {
    usage: 'events list [--type <event type>] [--limit <n>]',
    options: ['type', 'limit'],
    async run(context) {
      const shown = integerOption(context.args, 'limit') ?? DEFAULT_SHOWN;
      const events = await clientFor(context)
        .events.list({ limit: pageLimit(shown), type: eventTypeOption(stringOption(context.args, 'type')) }, { signal: context.signal })
        .toArray(shown);
      if (context.output.json) printRows(context.output, events, []);
      else printRows(context.output, events.map(eventRow), ['id', 'type', 'reference', 'amount', 'status', 'created_at']);
    },
  },

  'events get': {
    usage: 'events get <evt_id>',
    options: [],
    async run(context) {
      const event = await clientFor(context).events.retrieve(positional(context, 2, 'event id'), { signal: context.signal });
      if (context.output.json) return printRecord(context.output, event);
      const { deliveries, ...rest } = event;
      printRecord(context.output, rest);
      context.output.out('');
      printRows(context.output, deliveries, ['webhook_id', 'attempt', 'delivery_status', 'http_status', 'latency_ms', 'url', 'created_at']);
    },
  },

  'events resend': {
    usage: 'events resend <evt_id> [--endpoint <wh_id>]',
    options: ['endpoint'],
    async run(context) {
      const endpoint = stringOption(context.args, 'endpoint');
      const result = await clientFor(context).events.resend(positional(context, 2, 'event id'), endpoint ? { endpoint_id: endpoint } : {}, { signal: context.signal });
      printRecord(context.output, result);
    },
  },

  'events tail': {
    usage: 'events tail [--since <evt_id|start>] [--interval <ms>]   print new events as they happen',
    options: ['since', 'interval'],
    async run(context) {
      const credentials = credentialsFor(context);
      const client = new CheckoutClient(credentials);
      await followEvents(client, {
        onReady: () => context.output.progress('Waiting for events (Ctrl-C to stop)...'),
        statePath: listenStatePath(configPath(context.env), credentials.apiKey, 'tail'),
        since: sinceOption(context.args),
        intervalMs: intervalOption(context.args),
        signal: context.signal,
        onError: (error) => context.output.progress(`! ${error instanceof Error ? error.message : String(error)} (retrying)`),
        handle: async (event) => {
          if (context.output.json) context.output.out(JSON.stringify(event));
          // Server strings, printed as they come: consoleOutput (output.ts) escapes control characters in them.
          else context.output.out(`${event.created_at}  ${event.type.padEnd(27)} ${event.id}  ${String(event.data.reference)}  ${String(event.data.amount)}`);
          return true;
        },
      });
    },
  },

  trigger: {
    usage: `trigger <${TRIGGERABLE.join('|')}> [--session <cs id> | --amount <cents> --reference <text> --metadata k=v,...]   (test mode)`,
    options: ['session', 'amount', 'reference', 'metadata'],
    async run(context) {
      const credentials = requireTestKey(context, 'trigger');
      const type = eventTypeOption(positional(context, 1, 'event type'));
      const result = await trigger(new CheckoutClient(credentials), type!, {
        sessionId: stringOption(context.args, 'session'),
        amount: integerOption(context.args, 'amount'),
        reference: stringOption(context.args, 'reference'),
        metadata: metadataOption(context.args),
      }, context.output, { signal: context.signal });
      printRecord(context.output, result);
    },
  },

  listen: {
    usage: 'listen --forward-to <url> [--events a,b] [--since <evt_id|start>] [--interval <ms>] [--print-secret]   (test mode)',
    options: ['forward-to', 'events', 'since', 'interval', 'print-secret'],
    async run(context) {
      if (context.args.options.get('print-secret') === true) {
        // From the key alone: no request, so neither the gateway nor whether its URL may carry the key matters.
        const apiKey = resolveApiKey(context.args, context.env);
        refuseLiveKey(apiKey, 'listen');
        const secret = forwardingSecret(apiKey);
        return context.output.json ? printRecord(context.output, { secret }) : context.output.out(secret);
      }
      const forwardTo = forwardToOption(context.args);
      const credentials = requireTestKey(context, 'listen');
      await listen(new CheckoutClient(credentials), {
        apiKey: credentials.apiKey,
        forwardTo,
        events: eventTypesOption(context.args),
        since: sinceOption(context.args),
        statePath: listenStatePath(configPath(context.env), credentials.apiKey, forwardTo),
        intervalMs: intervalOption(context.args),
        signal: context.signal,
        output: context.output,
      });
    },
  },
};

/** The command named by the first one or two words. */
export function findCommand(positionals: readonly string[]): { name: string; command: Command } | undefined {
  const two = positionals.slice(0, 2).join(' ');
  if (COMMANDS[two]) return { name: two, command: COMMANDS[two] };
  const one = positionals[0];
  return one && COMMANDS[one] ? { name: one, command: COMMANDS[one] } : undefined;
}

/** Escaped: main writes it to stderr itself, and an API error's message is the server's. */
export const describeError = (error: unknown): string =>
  escapeControls(error instanceof Error ? error.message : String(error));
