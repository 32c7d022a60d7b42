/**
 * A class a config block extends (`WithDatabase(BaseConfig)`). TypeScript
 * accepts a mixin's base only with a constructor taking `...args: any[]`
 * (error TS2545 for `unknown[]`), so this one `any` is forced by the compiler.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TS2545: a mixin base constructor must take ...args: any[]
export type ConfigClass<T = object> = new (...args: any[]) => T;
