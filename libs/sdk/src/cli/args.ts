import { redactSecrets } from '../redact-secrets';

/** A command line split into positionals and `--name value` / `--name=value` options. */
export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string | true>;
}

/**
 * Options that take no value; every other takes one (`--name value` or `--name=value`). tools/launcher/cli.js reads
 * command lines the same way. `--no-color` does nothing (the CLI prints no colour): it is still accepted for scripts
 * written before it was removed, which would otherwise fail, or have their next word taken as its value.
 */
export const VALUELESS_OPTIONS: readonly string[] = ['json', 'print-secret', 'help', 'no-color'];
const FLAGS = new Set(VALUELESS_OPTIONS);

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = splitOnce(arg.slice(2), '=');
    if (inline !== undefined) options.set(name, inline);
    else if (FLAGS.has(name)) options.set(name, true);
    else {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`--${redactSecrets(name)} needs a value`);
      options.set(name, value);
      i++;
    }
  }
  return { positionals, options };
}

/** Options every command takes (main.ts); `no-color` a no-op kept for older scripts (VALUELESS_OPTIONS). */
const GLOBAL_OPTIONS = ['api-key', 'api-key-file', 'api-base', 'json', 'help', 'no-color'];

/** A mistyped option (`--stauts`) would otherwise be ignored, and the command run without it. */
export function refuseUnknownOptions(args: ParsedArgs, allowed: readonly string[]): void {
  const unknown = [...args.options.keys()].find((name) => !GLOBAL_OPTIONS.includes(name) && !allowed.includes(name));
  if (unknown !== undefined) throw new UsageError(`Unknown option --${redactSecrets(unknown)}`);
}

/** A mistake in how the command was called: printed with the usage, exit status 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}


/** The option's value; `--name=` with nothing after it is as wrong as `--name` alone (an empty --api-key would hide PP_API_KEY). */
export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.options.get(name);
  if (value === true || value === '') throw new UsageError(`--${redactSecrets(name)} needs a value`);
  return value;
}

export function integerOption(args: ParsedArgs, name: string): number | undefined {
  const value = stringOption(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number (got ${redactSecrets(value)})`);
  return Number(value);
}

/** `--metadata key=value,key2=value2` or `--metadata '{"key":"value"}'`. */
export function metadataOption(args: ParsedArgs): Record<string, string> | undefined {
  const value = stringOption(args, 'metadata');
  if (value === undefined) return undefined;
  if (value.trim().startsWith('{')) {
    const parsed = parsedJson(value);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--metadata JSON must be an object');
    return parsed as Record<string, string>;
  }
  return Object.fromEntries(
    value.split(',').map((pair) => {
      const [key, val] = splitOnce(pair, '=');
      if (!key || val === undefined) throw new UsageError(`--metadata entries look like key=value (got ${redactSecrets(pair)})`);
      return [key.trim(), val];
    }),
  );
}

function parsedJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new UsageError(`--metadata is not valid JSON (${redactSecrets(error instanceof Error ? error.message : String(error))}); or use key=value,key2=value2`);
  }
}

export const listOption = (args: ParsedArgs, name: string): string[] | undefined =>
  stringOption(args, name)
    ?.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
