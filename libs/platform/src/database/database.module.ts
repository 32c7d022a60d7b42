import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource, type MixedList, type EntitySchema } from 'typeorm';
import { CONFIG } from '../app/tokens';
import { HealthService } from '../health/health.service';
import { InfrastructureUnreachableError } from '../nats/connect-nats';
import { runMigrations } from './run-migrations';

export interface DatabaseOptions {
  /** The Postgres schema this service owns; its tables and migrations live there. */
  schema: string;
  entities?: MixedList<Function | string | EntitySchema>;
  migrations: Function[];
}

/**
 * A TypeORM data source on the service's own schema, migrated at boot under an
 * advisory lock (so replicas starting together migrate once), with a health check.
 */
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forService(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          inject: [CONFIG, HealthService],
          useFactory: async (config: { DATABASE_URL: string }, health: HealthService) => {
            const dataSource = new DataSource({
              type: 'postgres',
              url: config.DATABASE_URL,
              schema: options.schema,
              entities: options.entities ?? [],
              migrations: options.migrations,
              migrationsTableName: 'migrations',
              extra: { max: 20, connectionTimeoutMillis: 3000, application_name: options.schema },
            });
            try {
              await dataSource.initialize();
            } catch (error) {
              throw new InfrastructureUnreachableError('Postgres', redact(config.DATABASE_URL), error);
            }
            await runMigrations(dataSource, options.schema);
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

/** Hides a password in a connection URL before it is printed. */
export const redact = (url: string): string => url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
