export * from './in-span';
export * from './start-telemetry';
export * from './trace-carrier';
export * from './untrusted-parent';
