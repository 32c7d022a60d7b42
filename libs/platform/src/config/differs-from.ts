import { ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * A secret that must not be the same as the config's `others`: two tokens
 * for two callers of different trust (the platform operator's admin token,
 * the mail relay's ingest token) that a copy and paste made equal would give
 * the less trusted caller the other's power, and the service would start as
 * if nothing were wrong.
 */
export function DiffersFrom(...others: string[]): PropertyDecorator {
  return ValidateBy({
    name: 'differsFrom',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const config = (args?.object ?? {}) as Record<string, unknown>;
        return !others.some((other) => typeof value === 'string' && value.length > 0 && config[other] === value);
      },
      defaultMessage: () => `must differ from ${others.join(' and ')}: each secret has one holder and one use`,
    },
  });
}
