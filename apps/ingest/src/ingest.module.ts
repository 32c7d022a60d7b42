import { Module } from '@nestjs/common';
import { DatabaseModule } from '@pp/platform';
import { IngestMigrations } from './database/migrations';

@Module({
  imports: [
    DatabaseModule.forService({ schema: 'ingest', migrations: IngestMigrations }),
  ],
})
export class IngestModule {}
