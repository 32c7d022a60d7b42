import { type ArgumentsHost, Catch, HttpException, type RpcExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorCode, type WireError } from '@pp/contracts';
import { type Observable, throwError } from 'rxjs';
import type { JsonLogger } from '../logging/json-logger';

/**
 * Turns whatever a bus handler throws into a WireError: DomainErrors keep
 * their code, validation failures become VALIDATION_FAILED, anything else is
 * logged with its stack and answered as INTERNAL.
 */
@Catch()
export class BusExceptionFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly logger: JsonLogger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<WireError> {
    return throwError(() => this.toWire(exception, host));
  }

  private toWire(exception: unknown, host: ArgumentsHost): WireError {
    if (exception instanceof DomainError) return exception.toWire();
    if (exception instanceof HttpException && exception.getStatus() === 400) {
      const body = exception.getResponse() as { message?: string | string[] };
      const text = Array.isArray(body.message) ? body.message.join('; ') : (body.message ?? exception.message);
      return { code: ErrorCode.ValidationFailed, message: `Validation failed: ${text}` };
    }
    const subject = host.switchToRpc().getContext<{ subject?: string }>()?.subject;
    this.logger.error(exception instanceof Error ? exception : String(exception), { subject });
    return { code: ErrorCode.Internal, message: 'Internal error' };
  }
}
