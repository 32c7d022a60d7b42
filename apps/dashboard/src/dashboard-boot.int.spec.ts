import { randomBytes } from 'node:crypto';
import { Controller, Module, type Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type CheckoutSessionView, GetCheckoutSessionQuery, healthSubject, type ServiceHealthReply } from '@pp/contracts';
import { BusClient, connectNats, Handles, loadConfig, startService } from '@pp/platform';
import { testInfra } from '@pp/testing';
import { DashboardConfig } from './dashboard.config';
import { DashboardModule } from './dashboard.module';

/*
 * A service starts only when its process handles exactly the subjects the
 * registry gives it (libs/platform/src/nats/served-subjects.ts). The dashboard
 * serves nothing but its health subject, so it is the smallest real service
 * to boot in-process with modules that break the rule.
 */

const namespace = `t${randomBytes(5).toString('hex')}`;
const env = { NATS_URL: testInfra.natsUrlOf('dashboard'), REDIS_URL: testInfra.redisUrl, PP_NAMESPACE: namespace, DASHBOARD_PORT: '0', LOG_LEVEL: 'error' };
const boot = (module: Type<unknown>) =>
  startService({ name: 'dashboard', config: DashboardConfig, module, http: { port: (config) => config.DASHBOARD_PORT } }, loadConfig(DashboardConfig, env));

@Controller()
class SecondHealthHandler {
  @Handles(healthSubject('dashboard'))
  check(): Promise<ServiceHealthReply> {
    return Promise.resolve({ service: 'dashboard', status: 'up', instance: 'second', uptime_ms: 0, dependencies: {} });
  }
}

@Controller()
class SessionsHandlerInTheDashboard {
  @Handles('sessions.get.v1')
  get(@Payload() _query: GetCheckoutSessionQuery): Promise<CheckoutSessionView> {
    return Promise.reject(new Error('never subscribed'));
  }
}

@Module({ controllers: [SecondHealthHandler] })
class TwoHealthHandlersModule {}

@Module({ controllers: [SessionsHandlerInTheDashboard] })
class ForeignSubjectModule {}

describe('a service’s bus handlers at start-up', () => {
  it('given the handlers the registry gives the dashboard, then it starts and answers its health subject', async () => {
    const running = await boot(DashboardModule);
    const nc = await connectNats(testInfra.natsUrl, 'dashboard-boot-test');
    try {
      const health = await new BusClient(nc, namespace, 5000).request(healthSubject('dashboard'), {});
      expect({ service: health.service, status: health.status }).toEqual({ service: 'dashboard', status: 'up' });
    } finally {
      await nc.close();
      await running.stop();
    }
  });

  it('given two handlers for its health subject, then it refuses to start and names the subject', async () => {
    await expect(boot(TwoHealthHandlersModule)).rejects.toThrow(
      'its bus handlers do not match the subject registry (libs/contracts/src/bus-access): 2 handlers for health.dashboard',
    );
  });

  it('given a handler for a subject the registry gives another service, then it refuses to start and names both', async () => {
    await expect(boot(ForeignSubjectModule)).rejects.toThrow(
      'its bus handlers do not match the subject registry (libs/contracts/src/bus-access): a handler for sessions.get.v1, which the registry gives to sessions',
    );
  });
});
