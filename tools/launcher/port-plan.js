'use strict';
/**
 * The ports a stack started by `npm start` listens on, checked before any
 * service starts: a port another process holds (a second stack on another
 * GATEWAY_PORT keeps the default checkout and dashboard ports) or one the
 * plan gives twice (GATEWAY_PORT=2991 puts the sessions' metrics on 3001,
 * the checkout's) would otherwise stop the whole stack a few seconds in,
 * with an EADDRINUSE in one service's log.
 */
const { createServer } = require('node:net');

/** Each listener's name (what answers there), its port, and the setting that moves it. */
function portPlan(env, gatewayPort, metricsPorts) {
  return [
    { name: 'gateway', port: gatewayPort, setting: 'GATEWAY_PORT' },
    { name: 'checkout', port: Number(env.CHECKOUT_PORT ?? 3001), setting: 'CHECKOUT_PORT' },
    { name: 'dashboard', port: Number(env.DASHBOARD_PORT ?? 3002), setting: 'DASHBOARD_PORT' },
    ...Object.entries(metricsPorts).map(([service, port]) => ({ name: `${service} metrics`, port, setting: 'GATEWAY_PORT (metrics follow it: +10 to +14)' })),
  ];
}

/** What is wrong with the plan itself: a port given to two listeners. One line each. */
function clashes(plan) {
  const byPort = new Map();
  for (const listener of plan) byPort.set(listener.port, [...(byPort.get(listener.port) ?? []), listener]);
  return [...byPort.values()]
    .filter((listeners) => listeners.length > 1)
    .map((listeners) => `port ${listeners[0].port} is given to ${listeners.map((l) => l.name).join(' and ')}: set ${listeners.map((l) => l.setting).join(' or ')} apart`);
}

/** Whether something listens on `port` already (any interface, as the services bind). */
function taken(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error) => resolve(error.code === 'EADDRINUSE'));
    probe.listen({ port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** Every problem of the plan on this machine, one line each: clashes first, then ports held by another process. */
async function portProblems(plan) {
  const held = [];
  for (const listener of plan) if (await taken(listener.port)) held.push(`port ${listener.port} (${listener.name}) is in use by another process: stop it, or set ${listener.setting}`);
  return [...clashes(plan), ...held];
}

module.exports = { portPlan, portProblems };
