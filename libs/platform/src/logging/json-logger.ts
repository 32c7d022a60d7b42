import type { LoggerService } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { requestContext } from './request-context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
/** Nest's own start-up chatter (one line per module and route) is debug detail, not operations news. */
const NEST_BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestMicroservice']);

/**
 * One JSON object per line on stdout: time, level, service, message, and the
 * request and trace ids of the work in progress. Also serves as Nest's logger.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly service: string,
    private readonly minLevel: LogLevel = 'info',
    private readonly write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  ) {}

  debug(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.emit('debug', message, rest);
  }
  log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    this.emit(typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
  }
  info(message: unknown, fields?: Record<string, unknown>): void {
    this.emit('info', message, fields ? [fields] : []);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.emit('warn', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.emit('error', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.emit('error', message, rest);
  }

  private emit(level: LogLevel, message: unknown, rest: unknown[]): void {
    if (RANK[level] < RANK[this.minLevel]) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, service: this.service };
    const ctx = requestContext.current();
    if (ctx) entry.request_id = ctx.requestId;
    const span = trace.getActiveSpan()?.spanContext();
    if (span) entry.trace_id = span.traceId;
    if (message instanceof Error) {
      entry.msg = message.message;
      entry.stack = message.stack;
    } else {
      entry.msg = typeof message === 'string' ? message : JSON.stringify(message);
    }
    for (const extra of rest) {
      if (typeof extra === 'string') {
        // Nest passes (message, stack?, context) for errors and (message, context) otherwise.
        if (extra.includes('\n    at ')) entry.stack = extra;
        else entry.context = extra;
      } else if (extra instanceof Error) {
        entry.error = extra.message;
        entry.stack = extra.stack;
      } else if (extra && typeof extra === 'object') {
        Object.assign(entry, extra);
      }
    }
    this.write(JSON.stringify(entry));
  }
}
