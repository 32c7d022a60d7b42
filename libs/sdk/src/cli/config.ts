import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isApiKeyShaped } from '../http/api-key-shape';
import { keyInClearRefusal } from '../http/key-in-clear';
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

/**
 * The key from --api-key, else PP_API_KEY, else the config file `login` wrote; the base likewise, default
 * http://localhost:3000. The key is trimmed as the transport sends it, so what is derived from it (listen's
 * forwarding secret, its saved place) is the same whether or not it came with a line break.
 */
export function resolveCredentials(args: ParsedArgs, env: NodeJS.ProcessEnv): { apiKey: string; apiBase: string; allowInsecureHttp: boolean } {
  const config = readConfig(env);
  const given = (stringOption(args, 'api-key') ?? env.PP_API_KEY ?? config.api_key)?.trim();
  if (!given) throw new UsageError('No API key: pass --api-key, set PP_API_KEY, or run `login --key <secret key>` once');
  const apiKey = checkedKeyShape(given);
  const apiBase = stringOption(args, 'api-base') ?? env.PP_API_BASE ?? config.api_base ?? DEFAULT_API_BASE;
  refuseKeyInClear(apiBase, env);
  return { apiKey, apiBase, allowInsecureHttp: env.PP_ALLOW_HTTP === 'true' };
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

export const isTestKey = (apiKey: string): boolean => apiKey.startsWith('pp_live_test_');
