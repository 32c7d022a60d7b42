/*
 * `npm start` checks its ports before any service starts (port-plan.js): against a real listener on this machine.
 */
import { createServer, type Server } from 'node:net';

/* eslint-disable @typescript-eslint/no-require-imports -- the launcher is plain CommonJS */
type Listener = { name: string; port: number; setting: string };
const { portPlan, portProblems } = require('./port-plan') as {
  portPlan: (env: Record<string, string | undefined>, gatewayPort: number, metricsPorts: Record<string, number>) => Listener[];
  portProblems: (plan: Listener[]) => Promise<string[]>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const listening = (): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, () => resolve(server));
  });
const portOf = (server: Server) => (server.address() as { port: number }).port;

describe('npm start, its ports', () => {
  it('given the default settings, then the gateway, checkout, dashboard and metrics ports are planned apart', () => {
    const plan = portPlan({}, 3000, { sessions: 3010, ledger: 3011 });
    expect(plan.map((l) => [l.name, l.port])).toEqual([
      ['gateway', 3000],
      ['checkout', 3001],
      ['dashboard', 3002],
      ['sessions metrics', 3010],
      ['ledger metrics', 3011],
    ]);
  });

  it('given a gateway port whose metrics ports land on the checkout’s, then the clash is named with the settings to change', async () => {
    const free = await listening();
    const port = portOf(free);
    await new Promise((resolve) => free.close(resolve));
    const problems = await portProblems([
      { name: 'checkout', port, setting: 'CHECKOUT_PORT' },
      { name: 'sessions metrics', port, setting: 'GATEWAY_PORT' },
    ]);
    expect(problems).toEqual([`port ${port} is given to checkout and sessions metrics: set CHECKOUT_PORT or GATEWAY_PORT apart`]);
  });

  it('given a port another process listens on, then it is named with what would listen there and the setting that moves it; a free one is not', async () => {
    const other = await listening();
    const free = await listening();
    const freePort = portOf(free);
    await new Promise((resolve) => free.close(resolve));
    try {
      const problems = await portProblems([
        { name: 'dashboard', port: portOf(other), setting: 'DASHBOARD_PORT' },
        { name: 'gateway', port: freePort, setting: 'GATEWAY_PORT' },
      ]);
      expect(problems).toEqual([`port ${portOf(other)} (dashboard) is in use by another process: stop it, or set DASHBOARD_PORT`]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
