// Also the entry @pp/platform/config: what an app's config class is built from, light enough to load
// before anything else (an app's main.ts checks its configuration first, @pp/platform/boot).
export * from './config-schemas';
export * from './load-config';
export * from './development-only';
export * from './differs-from';
export * from './trusted-proxies';
export * from './redact-url';
export { IsKeyRing, IsStrongSecret } from '../crypto/secret-strength';
