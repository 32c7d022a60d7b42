import { ValidateBy, type ValidationArguments } from 'class-validator';

/** NODE_ENV values of a developer's machine or a test run: unset (`npm start`), development, test. */
const DEVELOPMENT_OR_TEST = ['', 'development', 'test'];

/** Whether NODE_ENV names a developer's machine or a test run, where settings meant only for them may be used. */
export const isDevelopmentOrTest = (nodeEnv: unknown): boolean => DEVELOPMENT_OR_TEST.includes(typeof nodeEnv === 'string' ? nodeEnv.trim().toLowerCase() : '');

/**
 * A development and test setting refused anywhere else (NODE_ENV=production, as the images set it, or any other
 * named environment, such as staging): the service will not start with the boolean at `refused` there, and says
 * `why`. The config class must declare NODE_ENV (BaseConfig does).
 */
export function DevelopmentOnly(refused: boolean, why: string): PropertyDecorator {
  return ValidateBy({
    name: 'developmentOnly',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => value !== refused || isDevelopmentOrTest((args?.object as { NODE_ENV?: unknown } | undefined)?.NODE_ENV),
      defaultMessage: () => `must not be ${refused} unless NODE_ENV is unset, development or test: ${why}`,
    },
  });
}
