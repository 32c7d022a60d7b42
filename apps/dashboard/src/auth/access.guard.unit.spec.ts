import { Controller, Get, Module } from '@nestjs/common';
import { APP_GUARD, NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DashboardConfig } from '../dashboard.config';
import { AccessGuard } from './access.guard';
import type { PrincipalRecheck } from './principal-recheck';
import type { SessionStore } from './session.store';
import type { UserRequestBudget } from '../http/user-request.budget';

/*
 * A route without an access rule (route-access.ts) is refused when it is part
 * of the API, decided on the route that matched: Fastify's router decodes
 * percent-escapes, so /%61pi/... reaches /api/... too. Over Fastify's own
 * router (inject: no socket), with the guard as the app wires it.
 */

@Controller('api/forgotten')
class ForgottenApiController {
  @Get()
  answer(): { reached: true } {
    return { reached: true };
  }
}

@Controller('page')
class PageController {
  @Get()
  answer(): { reached: true } {
    return { reached: true };
  }
}

@Module({
  controllers: [ForgottenApiController, PageController],
  providers: [
    {
      provide: APP_GUARD,
      inject: [Reflector],
      // No route here has a rule, so neither sessions, the recheck nor the budget are ever asked.
      useFactory: (reflector: Reflector) => new AccessGuard(reflector, {} as SessionStore, {} as PrincipalRecheck, {} as UserRequestBudget, { DASHBOARD_SECURE_COOKIE: false } as DashboardConfig),
    },
  ],
})
class ProbeModule {}

describe('access guard: a route without an access rule', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ProbeModule, new FastifyAdapter(), { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(async () => {
    await app?.close();
  });

  const get = (url: string) => app.getHttpAdapter().getInstance().inject({ method: 'GET', url });

  it.each(['/api/forgotten', '/%61pi/forgotten', '/%61%70%69/forgotten', '/api/%66orgotten'])('given an API route reached as %s, then it is refused with 403', async (url) => {
    const answer = await get(url);
    expect(answer.statusCode).toBe(403);
    expect(answer.body).not.toContain('reached');
  });

  it('given a route outside the API (a page), then it is let through', async () => {
    const answer = await get('/page');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ reached: true });
  });
});
