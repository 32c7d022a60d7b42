import { BadRequestException } from '@nestjs/common';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/** A body or query validated at the edge with the contract class's rules; 400 `Validation failed: …` naming the first problem. */
export function parseInput<T extends object>(type: ClassConstructor<T>, raw: unknown, extra: Record<string, unknown> = {}): T {
  const input = plainToInstance(type, { ...(typeof raw === 'object' && raw !== null ? raw : {}), ...extra });
  const [problem] = validateSync(input, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  if (problem) {
    const message = Object.values(problem.constraints ?? {})[0] ?? `${problem.property} is invalid`;
    throw new BadRequestException(message);
  }
  return input;
}
