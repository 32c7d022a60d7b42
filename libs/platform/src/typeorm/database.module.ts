import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONFIG } from '../app/tokens';
import { HealthService } from '../health/health.service';
import { InfrastructureUnreachableError } from '../nats/connect-nats';
import { assertServiceDatabase } from './schema-check';
import { DATABASE_CONNECT_TIMEOUT_MS, type ServiceDatabase } from '../database/service-database';
import { SERVICE_SESSION_LIMITS } from '../database/session-limits';
import { dataSourceFor } from './data-source';

/**
 * A TypeORM data source on the service's own schema, with a health check. The
 * service does not migrate: it logs in as its own role, which may not, and
 * checks at boot that the owner has migrated the schema
 * (apps/<service>/src/migrate.ts).
 */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forService(database: ServiceDatabase): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          inject: [CONFIG, HealthService],
          useFactory: async (config: { DATABASE_URL: string; DATABASE_POOL_SIZE: number }, health: HealthService) => {
            const dataSource = dataSourceFor(database, {
              url: config.DATABASE_URL,
              poolSize: config.DATABASE_POOL_SIZE,
              connectTimeoutMs: DATABASE_CONNECT_TIMEOUT_MS,
              applicationName: database.service,
              prepareStatements: true,
              limits: SERVICE_SESSION_LIMITS,
            });
            try {
              await dataSource.initialize();
            } catch (error) {
              throw new InfrastructureUnreachableError('Postgres', config.DATABASE_URL, error);
            }
            try {
              await assertServiceDatabase(dataSource, database);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            health.register('postgres', () => dataSource.query('SELECT 1'));
            return dataSource;
          },
        },
      ],
      exports: [DataSource],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

