import { ValidateBy, type ValidationArguments } from 'class-validator';
import { isDevelopmentOrTest } from './development-only';

/**
 * A secret that must not be the same as the config's `others` outside a
 * developer's machine or a test run (NODE_ENV unset, development, test; the
 * config class declares NODE_ENV, as BaseConfig does): two tokens for two
 * callers of different trust (the platform operator's admin token, the mail
 * relay's ingest token) that a copy and paste made equal would give the less
 * trusted caller the other's power, and the service would start as if
 * nothing were wrong. A test set-up may share one value.
 */
export function DiffersFrom(...others: string[]): PropertyDecorator {
  return ValidateBy({
    name: 'differsFrom',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const config = (args?.object ?? {}) as Record<string, unknown>;
        if (isDevelopmentOrTest(config.NODE_ENV)) return true;
        return !others.some((other) => typeof value === 'string' && value.length > 0 && config[other] === value);
      },
      defaultMessage: () => `must differ from ${others.join(' and ')} unless NODE_ENV is unset, development or test: each secret has one holder and one use`,
    },
  });
}
