import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_API_BASE } from '../http/transport';
import { type ParsedArgs, stringOption, UsageError } from './args';

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

/**
 * Written readable by the owner only: it holds a secret key. A new file,
 * created 0600, replaces the old one, so the key is never in a file that an
 * earlier write left readable to others (`mode` applies only at creation).
 */
export function writeConfig(env: NodeJS.ProcessEnv, config: CliConfig): string {
  const path = configPath(env);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fresh = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(fresh, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(fresh, path);
  } catch (error) {
    rmSync(fresh, { force: true });
    throw error;
  }
  return path;
}

/** The key from --api-key, else PP_API_KEY, else the config file `login` wrote; the base likewise, default http://localhost:3000. */
export function resolveCredentials(args: ParsedArgs, env: NodeJS.ProcessEnv): { apiKey: string; apiBase: string } {
  const config = readConfig(env);
  const apiKey = stringOption(args, 'api-key') ?? env.PP_API_KEY ?? config.api_key;
  if (!apiKey) throw new UsageError('No API key: pass --api-key, set PP_API_KEY, or run `login --key <secret key>` once');
  const apiBase = stringOption(args, 'api-base') ?? env.PP_API_BASE ?? config.api_base ?? DEFAULT_API_BASE;
  refuseKeyInClear(apiBase, env);
  return { apiKey, apiBase };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The secret key travels in every request's Authorization header: over plain
 * http it is readable by anyone on the way, so only this machine's gateway
 * (local development) may be http, unless PP_ALLOW_HTTP=true says the network
 * is private on purpose.
 */
export function refuseKeyInClear(apiBase: string, env: NodeJS.ProcessEnv): void {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw new UsageError(`The API base ${apiBase} is not a URL (https://…)`);
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || env.PP_ALLOW_HTTP === 'true'))) return;
  throw new UsageError(`The API base ${apiBase} would send the secret key in clear text: use https://, or set PP_ALLOW_HTTP=true for a private network`);
}

export const isTestKey = (apiKey: string): boolean => apiKey.startsWith('pp_live_test_');
