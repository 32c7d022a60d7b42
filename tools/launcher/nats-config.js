#!/usr/bin/env node
/** `npm run nats:config`: rewrites the deployments' NATS server config from the subject registry (libs/platform deploy-nats-config.ts). */
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
require('../build/build').build({ quiet: true });
const { deployNatsServerConfig, DEPLOY_NATS_CONFIG_PATH } = require(join(root, 'dist', 'libs', 'platform', 'src', 'nats', 'deploy-nats-config.js'));
writeFileSync(join(root, DEPLOY_NATS_CONFIG_PATH), deployNatsServerConfig());
console.log(`wrote ${DEPLOY_NATS_CONFIG_PATH}`);
