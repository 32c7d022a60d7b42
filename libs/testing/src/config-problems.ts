import { ConfigError, type Env, loadConfig } from '@pp/platform';

/** What a service's boot would say is wrong with `env` for its config class: one line a variable, none when it loads. */
export function configProblems<T extends object>(schema: new () => T, env: Env): string[] {
  try {
    loadConfig(schema, env);
    return [];
  } catch (error) {
    return error instanceof ConfigError ? error.problems : [String(error)];
  }
}
