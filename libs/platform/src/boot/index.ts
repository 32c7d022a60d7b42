// The entry @pp/platform/boot: all an app's main.ts loads before its configuration is known to be valid
// (runService loads the rest, and the app's own modules, only then).
export * from './run-service';
