import { ValidateBy, type ValidationArguments } from 'class-validator';

const isProduction = (nodeEnv: unknown): boolean => typeof nodeEnv === 'string' && nodeEnv.trim().toLowerCase() === 'production';

/**
 * A development and test setting refused under NODE_ENV=production (which the images set): the service will not
 * start with the boolean at `refused` there, and says `why`. The config class must declare NODE_ENV (BaseConfig does).
 */
export function NotInProduction(refused: boolean, why: string): PropertyDecorator {
  return ValidateBy({
    name: 'notInProduction',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => value !== refused || !isProduction((args?.object as { NODE_ENV?: unknown } | undefined)?.NODE_ENV),
      defaultMessage: () => `must not be ${refused} when NODE_ENV=production: ${why}`,
    },
  });
}
