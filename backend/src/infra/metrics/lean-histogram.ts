import type { Metric } from 'prom-client';

/** One label set's counts: per bucket (the last one +Inf), not cumulative until exported. */
export class LeanSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/**
 * A histogram for the per-request path: a series is made once per label set and kept by the caller,
 * so an observation is a bucket search and three additions (prom-client's own checks and hashes the
 * labels on each one, about ten times as long). Exported through a prom-client registry as usual.
 */
export class LeanHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly all: LeanSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  /** A new series of these labels (call once per label set and keep it). */
  series(labels: Readonly<Record<string, string>>): LeanSeries {
    const series = new LeanSeries(labels, this.bounds);
    this.all.push(series);
    return series;
  }

  get() {
    const values = this.all.flatMap((series) => {
      let cumulative = 0;
      const buckets = series.counts.map((count, i) => {
        cumulative += count;
        const le = i < this.bounds.length ? String(this.bounds[i]) : '+Inf';
        return { metricName: `${this.name}_bucket`, labels: { le, ...series.labels }, value: cumulative };
      });
      return [
        ...buckets,
        { metricName: `${this.name}_sum`, labels: series.labels, value: series.sum },
        { metricName: `${this.name}_count`, labels: series.labels, value: series.count },
      ];
    });
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    for (const series of this.all) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  /** As prom-client's registry takes it. */
  asMetric(): Metric {
    return this as unknown as Metric;
  }
}
