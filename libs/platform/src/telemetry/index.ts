export * from './start-telemetry';
