// Every Jest run starts from a fresh dist/, so harness-spawned services run the code under test.
const { build } = require('./build');

module.exports = async () => build({ quiet: true });
