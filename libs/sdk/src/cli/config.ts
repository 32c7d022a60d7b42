import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isApiKeyShaped, isTestKey } from '../http/api-key-shape';
import { keyInClearRefusal, withoutUserinfo } from '../http/key-in-clear';
import { redactSecrets } from '../redact-secrets';
import { DEFAULT_API_BASE } from '../http/transport';
import { type ParsedArgs, stringOption, UsageError } from './args';
import { writePrivateFile } from './private-file';

export interface CliConfig {
  api_key?: string;
  api_base?: string;
}

/** PP_CONFIG_FILE, else $XDG_CONFIG_HOME/pp-checkout/config.json (~/.config by default). */
export function configPath(env: NodeJS.ProcessEnv): string {
  if (env.PP_CONFIG_FILE) return env.PP_CONFIG_FILE;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'pp-checkout', 'config.json');
}

export function readConfig(env: NodeJS.ProcessEnv): CliConfig {
  try {
    return JSON.parse(readFileSync(configPath(env), 'utf8')) as CliConfig;
  } catch {
    return {};
  }
}

/** Readable by the owner only, and replaced whole (writePrivateFile): it holds a secret key. */
export function writeConfig(env: NodeJS.ProcessEnv, config: CliConfig): string {
  const path = configPath(env);
  writePrivateFile(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/** More than any key file holds (a key is under 60 characters): a file this long is not one, and /dev/zero must not fill memory. */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/**
 * The key given on the command line: --api-key, or the contents of the file --api-key-file names (trimmed), which
 * keeps the key out of argv (where `ps` and shell history see it): a mounted secret, or `--api-key-file -` with the
 * key piped in on stdin. Neither the file's contents nor any part of them is ever printed.
 */
export function apiKeyOption(args: ParsedArgs): string | undefined {
  const inline = stringOption(args, 'api-key');
  const file = stringOption(args, 'api-key-file');
  if (file === undefined) return inline;
  if (inline !== undefined) throw new UsageError('Pass the key one way: --api-key or --api-key-file, not both');
  const key = readKeyFile(file).trim();
  if (!key) throw new UsageError(`--api-key-file ${redactSecrets(file)} holds no key (it is empty)`);
  return key;
}

/** `-` and /dev/stdin are the CLI's stdin, read as it is (opening /dev/stdin again fails when stdin is a socket, as a parent process's pipe may be). */
const STDIN_NAMES = new Set(['-', '/dev/stdin']);

function readKeyFile(path: string): string {
  const stdin = STDIN_NAMES.has(path);
  let fd: number | undefined;
  try {
    fd = stdin ? 0 : openSync(path, 'r');
    const buffer = Buffer.alloc(MAX_KEY_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const read = readSomeSync(fd, buffer, length);
      if (read === 0) return buffer.toString('utf8', 0, length);
      length += read;
      if (length > MAX_KEY_FILE_BYTES) throw new UsageError(`--api-key-file ${redactSecrets(path)} is longer than ${MAX_KEY_FILE_BYTES} bytes: it does not hold just a key`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`Cannot read --api-key-file ${redactSecrets(path)}${code ? ` (${code})` : ''}`);
  } finally {
    if (fd !== undefined && !stdin) closeSync(fd);
  }
}

/** readSync, waiting while a non-blocking stdin has nothing yet (EAGAIN) instead of failing. */
function readSomeSync(fd: number, buffer: Buffer, offset: number): number {
  for (;;) {
    try {
      return readSync(fd, buffer, offset, buffer.length - offset, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/**
 * The key from --api-key or --api-key-file, else PP_API_KEY, else the config file `login` wrote. Trimmed as the
 * transport sends it, so what is derived from it (listen's forwarding secret, its saved place) is the same whether or
 * not it came with a line break.
 */
export function resolveApiKey(args: ParsedArgs, env: NodeJS.ProcessEnv, config: CliConfig = readConfig(env)): string {
  return givenKey(args, env, config).apiKey;
}

function givenKey(args: ParsedArgs, env: NodeJS.ProcessEnv, config: CliConfig): { apiKey: string; saved: boolean } {
  // `PP_API_KEY=` (cleared that way) is unset, as an empty PP_API_BASE is: the key `login` saved still counts.
  const passed = apiKeyOption(args) ?? (env.PP_API_KEY || undefined);
  const given = (passed ?? config.api_key)?.trim();
  if (!given) throw new UsageError('No API key: pass --api-key or --api-key-file, set PP_API_KEY, or run `login --key <secret key>` once');
  return { apiKey: checkedKeyShape(given), saved: passed === undefined };
}

/**
 * The key (resolveApiKey) and the gateway: --api-base, else PP_API_BASE, else, for the key the config file holds, the
 * gateway saved with it, default http://localhost:3000. Another key never goes to the saved gateway, which was named for
 * the saved key only (a live key given for production would reach the staging gateway `login` once saved). A key from
 * the config file goes only to the gateway `login` saved with it: a PP_API_BASE
 * naming another is refused, or a live key saved for one gateway would be sent to whichever the environment of the
 * moment names. --api-base, given on purpose, overrides. A config file from before `login` saved the gateway (SDK
 * 0.2.0) names none: its test key goes where PP_API_BASE says, as it did then, with a warning through `warn` (stderr)
 * to run `login` again; a live or restricted key is refused until --api-base names the gateway or `login` saves it.
 */
export function resolveCredentials(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv,
  warn: (line: string) => void,
): { apiKey: string; apiBase: string; allowInsecureHttp: boolean } {
  const config = readConfig(env);
  const { apiKey, saved } = givenKey(args, env, config);
  const apiBase = stringOption(args, 'api-base') ?? (saved ? savedKeyBase(config, apiKey, env, warn) : (envApiBase(env) ?? givenKeyDefaultBase(apiKey)));
  refuseKeyInClear(apiBase, env);
  return { apiKey, apiBase, allowInsecureHttp: env.PP_ALLOW_HTTP === 'true' };
}

/**
 * Where a key given by --api-key, --api-key-file or PP_API_KEY goes when no gateway is named: a test key to the
 * developer's own (DEFAULT_API_BASE); a live or restricted one nowhere, as the SDK's client refuses it too: over plain
 * http it would reach whatever listens on that port of the machine the command runs on.
 */
function givenKeyDefaultBase(apiKey: string): string {
  if (isTestKey(apiKey)) return DEFAULT_API_BASE;
  throw new UsageError('A live or restricted key goes only to a gateway named on purpose: pass --api-base, or set PP_API_BASE, to its https address');
}

/**
 * PP_API_BASE, or undefined when it is unset or empty: `PP_API_BASE=` (a variable cleared that way, or set from an
 * unset one in a compose file) names no gateway. Read through here by every command, `login` included, so one empty
 * value means the same everywhere.
 */
export function envApiBase(env: NodeJS.ProcessEnv): string | undefined {
  return env.PP_API_BASE === '' ? undefined : env.PP_API_BASE;
}

function savedKeyBase(config: CliConfig, apiKey: string, env: NodeJS.ProcessEnv, warn: (line: string) => void): string {
  const named = envApiBase(env);
  if (!config.api_base) {
    if (!named) return DEFAULT_API_BASE;
    if (!sameGateway(named, DEFAULT_API_BASE)) {
      // A test key moves no money: it goes on as before. A live or restricted one waits for the gateway to be named on purpose.
      if (!isTestKey(apiKey)) {
        throw new UsageError(
          `The live key \`login\` saved names no gateway (an older CLI saved it), and PP_API_BASE names ${withoutUserinfo(named)}: ` +
            'pass --api-base to send it there, or run `login` again with the gateway to save it with the key',
        );
      }
      warn(
        `warning: the key \`login\` saved names no gateway (an older CLI saved it), so it goes to PP_API_BASE ${withoutUserinfo(named)} as before; ` +
          'run `login` again to save the gateway with the key, which then goes to no other',
      );
    }
    return named;
  }
  const saved = config.api_base;
  if (named && !sameGateway(named, saved)) {
    throw new UsageError(
      `The key \`login\` saved is for ${withoutUserinfo(saved)}, and PP_API_BASE names ${withoutUserinfo(named)}: pass --api-base to send it there, ` +
        'give that gateway its own key (--api-key, --api-key-file or PP_API_KEY), or run `login` again with --api-base',
    );
  }
  return saved;
}

/**
 * Whether two API bases name one gateway: compared as fetch reaches them, by scheme, host (any case) and port (the
 * scheme's default written or not) and the path without trailing slashes, so https://GW.example:443/ is
 * https://gw.example. A user name or password is not part of it (keyInClearRefusal refuses a base holding one). A
 * string that is not a URL is compared as written, less trailing slashes.
 */
function sameGateway(a: string, b: string): boolean {
  return gatewayOf(a) === gatewayOf(b);
}

function gatewayOf(apiBase: string): string {
  try {
    const url = new URL(apiBase);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return apiBase.replace(/\/+$/, '');
  }
}

/** The CLI's refusal to send the key in clear text (keyInClearRefusal), as a usage error. */
export function refuseKeyInClear(apiBase: string, env: NodeJS.ProcessEnv): void {
  const refusal = keyInClearRefusal(apiBase, env.PP_ALLOW_HTTP === 'true', 'set PP_ALLOW_HTTP=true');
  if (refusal) throw new UsageError(refusal);
}

/** The refusal never repeats the key: it is a secret, and what is wrong with it may be a control character. */
export function checkedKeyShape(key: string): string {
  if (!isApiKeyShaped(key)) throw new UsageError('The key holds characters no key has (a space or a line break?): keys are pp_ then letters, digits and underscores');
  return key;
}

