import { Module } from '@nestjs/common';
import { DatabaseModule } from '@pp/platform';
import { LedgerMigrations } from './database/migrations';

@Module({
  imports: [
    DatabaseModule.forService({ schema: 'ledger', migrations: LedgerMigrations }),
  ],
})
export class LedgerModule {}
