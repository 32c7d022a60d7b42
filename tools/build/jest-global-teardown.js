// Stops what the global set-up started (jest-global-setup.js); the runner would also end with this process.
module.exports = async () => globalThis.__stopMigrationRunner?.();
