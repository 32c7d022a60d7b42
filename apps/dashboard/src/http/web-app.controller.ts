import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { indexHtml } from './web-page';

/**
 * The single-page app's routes all load the same page, which routes on the
 * client (apps/dashboard/web/src/main.tsx). They are listed, not caught with
 * a wildcard, so any other path stays a JSON 404 and a wrong method a 405,
 * as on every HTTP app (docs/ARCHITECTURE.md, "HTTP edge").
 */
export const WEB_APP_ROUTES = [
  '/',
  'home',
  'account',
  'payments',
  'payments/:id',
  'checkout-sessions',
  'checkout-sessions/:id',
  'developers',
  'team',
  'audit',
  'admin/refunds',
  'admin/review',
  'admin/merchants',
  'admin/quarantine',
  'admin/audit',
];

@Controller()
export class WebAppController {
  private page?: string;

  @Get(WEB_APP_ROUTES)
  index(@Res() reply: FastifyReply): void {
    this.page ??= indexHtml();
    void reply.code(200).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(this.page);
  }
}
