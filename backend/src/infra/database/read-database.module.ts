import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ReadReplicasConfig } from '../../config/read-replicas.js';
import { Metrics } from '../metrics/metrics.js';
import { ReadDatabase } from './read-database.js';

/** The read replicas of DATABASE_READ_URL, for every module (none configured: reads on the primary). */
@Global()
@Module({})
export class ReadDatabaseModule {
  static forRoot(config: ReadReplicasConfig, poolSize?: number): DynamicModule {
    return {
      module: ReadDatabaseModule,
      providers: [
        {
          provide: ReadDatabase,
          inject: [DataSource, Metrics],
          useFactory: (dataSource: DataSource, metrics: Metrics) =>
            new ReadDatabase(dataSource, config, metrics, poolSize),
        },
      ],
      exports: [ReadDatabase],
    };
  }
}
