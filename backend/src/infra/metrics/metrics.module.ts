import {
  Global,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { listenForMetrics, type MetricsServer } from './metrics-http.js';
import { Metrics } from './metrics.js';

/** METRICS_LISTEN's server, up while the app is (API and worker alike). */
@Injectable()
export class MetricsListener implements OnApplicationBootstrap, OnApplicationShutdown {
  private server: MetricsServer | undefined;

  constructor(
    private readonly metrics: Metrics,
    @InjectConfig() private readonly config: Pick<AppConfig, 'metrics'>,
  ) {}

  /** `http://host:port/metrics` with METRICS_LISTEN, once started. */
  get url(): string | undefined {
    return this.server?.url;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.server = await listenForMetrics(this.metrics, this.config.metrics);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }
}

/** Metrics everywhere: each unit counts what it owns into it, or registers a reader for a scrape. */
@Global()
@Module({ providers: [Metrics, MetricsListener], exports: [Metrics] })
export class MetricsModule {}
