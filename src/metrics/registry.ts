import { Counter, collectDefaultMetrics, Gauge, Histogram, type MetricType, Registry } from 'prom-client';
import type { DurationTally } from '../platform/tallies.js';

/** Label values of one series (label names are declared with the metric). */
export type Labels = Record<string, string>;
/** A series' labels and its value, as a collector reads them at scrape time. */
export type Sample = readonly [labels: Labels, value: number];

type Read<T> = () => Iterable<T> | Promise<Iterable<T>>;

interface SeriesSpec<T> {
  name: string;
  help: string;
  labelNames?: readonly string[];
  read: Read<T>;
}

/**
 * The metrics of one process: a registry of its own (never prom-client's global one), the standard
 * process and Node.js metrics, and the service's series. Every series is read when the registry is
 * scraped, from counts the code keeps in plain numbers (tallies.ts) or from Redis and the queues, so
 * nothing on a request path talks to prom-client.
 */
export class MetricsRegistry {
  readonly registry = new Registry();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every series. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** A counter whose samples are read at scrape time (totals since the process started). */
  counter(spec: SeriesSpec<Sample>): void {
    new Counter(this.collected<Counter>(spec, (metric, labels, value) => metric.inc(labels, value)));
  }

  /** A gauge whose samples are read at scrape time; a read that fails leaves the series out. */
  gauge(spec: SeriesSpec<Sample>): void {
    new Gauge(this.collected<Gauge>(spec, (metric, labels, value) => metric.set(labels, value)));
  }

  /** The configuration of a counter or gauge that refills itself from `read` on every scrape. */
  private collected<M extends Counter | Gauge>(
    spec: SeriesSpec<Sample>,
    put: (metric: M, labels: Labels, value: number) => void,
  ) {
    const { read } = spec;
    return {
      name: spec.name,
      help: spec.help,
      labelNames: spec.labelNames ?? [],
      registers: [this.registry],
      async collect(this: M) {
        const samples = await read();
        // Reset after the read: a scrape never sees a half-filled series.
        this.reset();
        for (const [labels, value] of samples) put(this, labels, value);
      },
    };
  }

  /** A histogram whose buckets are read at scrape time from DurationTally counts. */
  histogram(spec: SeriesSpec<readonly [Labels, DurationTally]> & { buckets: readonly number[] }): void {
    new TallyHistogram({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labelNames ?? [],
      buckets: [...spec.buckets],
      registers: [this.registry],
      read: spec.read,
    });
  }
}

type HistogramValues = Awaited<ReturnType<Histogram['get']>>;

/**
 * A prom-client histogram whose values are DurationTally counts, read at scrape time. prom-client has no
 * way to hand it counts already bucketed (only one observe() per value, each hashing its labels), so this
 * answers the registry's reads itself, in the shape prom-client's own histogram gives.
 */
class TallyHistogram extends Histogram {
  private readonly read: Read<readonly [Labels, DurationTally]>;
  private readonly bounds: readonly number[];
  private readonly metric: { name: string; help: string };

  constructor(
    config: ConstructorParameters<typeof Histogram>[0] & {
      buckets: number[];
      read: Read<readonly [Labels, DurationTally]>;
    },
  ) {
    const { read, ...rest } = config;
    super(rest);
    this.read = read;
    this.bounds = config.buckets;
    this.metric = { name: config.name, help: config.help };
  }

  override async get(): Promise<HistogramValues> {
    const { name, help } = this.metric;
    const values: HistogramValues['values'] = [];
    for (const [labels, tally] of await this.read()) {
      if (tally.bounds.length !== this.bounds.length) throw new Error(`${name}: bucket bounds differ`);
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += tally.counts[i] as number;
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le }, value: cumulative });
      });
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: '+Inf' }, value: tally.count });
      values.push({ metricName: `${name}_sum`, labels, value: tally.sum });
      values.push({ metricName: `${name}_count`, labels, value: tally.count });
    }
    return {
      name,
      help,
      // The text format's type name; prom-client's typings declare an enum it does not export.
      type: 'histogram' as unknown as MetricType,
      values,
      aggregator: 'sum',
      collect: () => {},
    };
  }

  /** What the registry reads when it writes the text format (prom-client's own histogram has it too). */
  getForPromString(): Promise<HistogramValues> {
    return this.get();
  }
}
