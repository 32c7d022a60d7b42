import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type AuditEntryView, DEFAULT_PAGE_LIMIT, ListAuditEntriesQuery, type ListPage, pageOf, RecordAuditEntryCommand } from '@pp/contracts';
import { Handles } from '@pp/platform';
import { DataSource } from 'typeorm';
import { AuditEntryRepository } from './audit-entry.repository';

/** The audit trail the dashboard records (docs/ARCHITECTURE.md "Audit trail"): stored here, next to the users it names. */
@Controller()
export class AuditHandler {
  private readonly entries: AuditEntryRepository;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.entries = new AuditEntryRepository(dataSource);
  }

  @Handles('identity.audit.record.v1')
  async record(@Payload() command: RecordAuditEntryCommand): Promise<{ id: string }> {
    await this.entries.append(command);
    return { id: command.id };
  }

  @Handles('identity.audit.list.v1')
  async list(@Payload() query: ListAuditEntriesQuery): Promise<ListPage<AuditEntryView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    return pageOf(await this.entries.list(query, limit + 1), limit, (entry) => entry);
  }
}
