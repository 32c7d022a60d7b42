import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';

export type Env = Record<string, string | undefined>;

/** Raised at boot when an environment variable is missing or malformed. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'ConfigError';
  }
}

/**
 * Reads the variables declared on `schema` from `env`, converts and validates
 * them once. Nothing else in a service reads process.env.
 */
export function loadConfig<T extends object>(schema: new () => T, env: Env): T {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const config = plainToInstance(schema, present, { enableImplicitConversion: false });
  const errors = validateSync(config, { whitelist: true, forbidUnknownValues: false });
  if (errors.length > 0) throw new ConfigError(errors.map(describe));
  return config;
}

function describe(error: ValidationError): string {
  const rules = Object.values(error.constraints ?? {});
  const value = (error.target as Record<string, unknown> | undefined)?.[error.property];
  if (value === undefined) return `${error.property} is required (${rules[rules.length - 1] ?? 'missing'})`;
  return `${error.property} is invalid: ${rules.join(', ')}`;
}
