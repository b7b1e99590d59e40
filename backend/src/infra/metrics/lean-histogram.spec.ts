import { Registry } from 'prom-client';
import { LeanHistogram } from './lean-histogram.js';

describe('LeanHistogram', () => {
  it('exports cumulative buckets, sum and count per label set, as prom-client writes a histogram', async () => {
    const histogram = new LeanHistogram('lean_seconds', 'A test histogram', [0.01, 0.5]);
    const registry = new Registry();
    registry.registerMetric(histogram.asMetric());
    const fast = histogram.series({ route: '/a' });
    for (const value of [0.003, 0.01, 0.2, 20]) fast.observe(value);
    histogram.series({ route: '/b' });
    expect(await registry.metrics()).toBe(
      [
        '# HELP lean_seconds A test histogram',
        '# TYPE lean_seconds histogram',
        'lean_seconds_bucket{le="0.01",route="/a"} 2',
        'lean_seconds_bucket{le="0.5",route="/a"} 3',
        'lean_seconds_bucket{le="+Inf",route="/a"} 4',
        'lean_seconds_sum{route="/a"} 20.213',
        'lean_seconds_count{route="/a"} 4',
        'lean_seconds_bucket{le="0.01",route="/b"} 0',
        'lean_seconds_bucket{le="0.5",route="/b"} 0',
        'lean_seconds_bucket{le="+Inf",route="/b"} 0',
        'lean_seconds_sum{route="/b"} 0',
        'lean_seconds_count{route="/b"} 0',
        '',
      ].join('\n'),
    );
    histogram.reset();
    expect(await registry.metrics()).toContain('lean_seconds_count{route="/a"} 0');
  });
});
