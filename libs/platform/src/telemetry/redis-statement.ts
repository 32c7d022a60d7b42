import type { CommandArgs } from '@opentelemetry/instrumentation-ioredis';

/** Commands whose second argument is the number of keys: EVAL script numkeys …, EVALSHA sha numkeys … */
const SCRIPT_COMMAND = /^eval(sha)?(_ro)?$/i;
const COUNT = /^\d+$/;

/**
 * A Redis span's db.statement: the command name, and for a script the number
 * of keys. The instrumentation's default keeps key names and most arguments,
 * which are built from what a service counts or caches (client addresses,
 * credentials' digests, payloads); keeping none of them means no key or
 * argument added later can reach a trace.
 */
export function commandOnlyStatement(cmdName: string, cmdArgs: CommandArgs): string {
  if (!SCRIPT_COMMAND.test(cmdName)) return cmdName;
  const keys = String(cmdArgs[1] ?? '');
  return COUNT.test(keys) ? `${cmdName} numkeys=${keys}` : cmdName;
}
