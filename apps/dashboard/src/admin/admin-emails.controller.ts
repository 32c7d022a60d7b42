import { Controller, Get, Param } from '@nestjs/common';
import { EMAIL_ID_PATTERN, type EmailEvidenceView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { Permit } from '../auth/route-access';
import { notFound } from '../http/not-found';

/** The e-mail a payment under review came from, as evidence (sender, recipients, authentication, parsed fields); never its raw bytes. */
@Controller('api/admin/emails')
export class AdminEmailsController {
  constructor(private readonly bus: BusClient) {}

  @Get(':id')
  @Permit('platform.operate')
  evidence(@Param('id') id: string): Promise<EmailEvidenceView> {
    if (!EMAIL_ID_PATTERN.test(id)) throw notFound('E-mail');
    return this.bus.request('ingest.emails.evidence.v1', { email_id: id });
  }
}
