// A small Prometheus registry: counters, gauges and fixed-bucket histograms, rendered in the text
// exposition format (version 0.0.4). Label values must come from bounded sets (route patterns,
// status codes, closed error-code lists), never from raw request data.

type Labels = Record<string, string>;

function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labelText(labels: Labels | undefined, extra?: [string, string]): string {
  const parts = labels ? Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`) : [];
  if (extra) parts.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return parts.length ? `{${parts.join(",")}}` : "";
}

function num(v: number): string {
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return Number.isNaN(v) ? "NaN" : String(v);
}

const keyOf = (labels?: Labels) => (labels ? JSON.stringify(labels) : "");

interface Metric {
  render(): string[];
}

abstract class Family<V> implements Metric {
  protected readonly all = new Map<string, { labels?: Labels; value: V }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "gauge" | "histogram",
  ) {}

  protected entry(labels: Labels | undefined, init: () => V) {
    const k = keyOf(labels);
    let e = this.all.get(k);
    if (!e) this.all.set(k, (e = { labels, value: init() }));
    return e;
  }

  protected header(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`];
  }

  abstract render(): string[];
}

export class Counter extends Family<number> {
  constructor(name: string, help: string) {
    super(name, help, "counter");
  }

  inc(labels?: Labels, by = 1): void {
    this.entry(labels, () => 0).value += by;
  }

  /** One series, for a hot path: increments without building its key again. */
  series(labels?: Labels): { inc: (by?: number) => void } {
    const e = this.entry(labels, () => 0);
    return { inc: (by = 1) => void (e.value += by) };
  }

  get(labels?: Labels): number {
    return this.all.get(keyOf(labels))?.value ?? 0;
  }

  render(): string[] {
    return [...this.header(), ...[...this.all.values()].map((s) => `${this.name}${labelText(s.labels)} ${num(s.value)}`)];
  }
}

type Collect = () => number | { labels: Labels; value: number }[];

/** Values read at scrape time: a gauge (queue depth, free disk space), or a counter kept elsewhere. */
export class Gauge implements Metric {
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly collect: Collect,
    private readonly type: "gauge" | "counter" = "gauge",
  ) {}

  render(): string[] {
    const v = this.collect();
    const rows = typeof v === "number" ? [`${this.name} ${num(v)}`] : v.map((s) => `${this.name}${labelText(s.labels)} ${num(s.value)}`);
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} ${this.type}`, ...rows];
  }
}

interface HistogramValue {
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram extends Family<HistogramValue> {
  constructor(
    name: string,
    help: string,
    private readonly buckets: number[],
  ) {
    super(name, help, "histogram");
  }

  observe(value: number, labels?: Labels): void {
    const e = this.entry(labels, () => ({ counts: this.buckets.map(() => 0), sum: 0, count: 0 })).value;
    // Cumulative counts are built at render time: one increment per observation here.
    const i = this.buckets.findIndex((b) => value <= b);
    if (i >= 0) e.counts[i]!++;
    e.sum += value;
    e.count++;
  }

  render(): string[] {
    const out = this.header();
    for (const s of this.all.values()) {
      let cumulative = 0;
      this.buckets.forEach((b, i) => {
        cumulative += s.value.counts[i]!;
        out.push(`${this.name}_bucket${labelText(s.labels, ["le", num(b)])} ${cumulative}`);
      });
      out.push(`${this.name}_bucket${labelText(s.labels, ["le", "+Inf"])} ${s.value.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${num(s.value.sum)}`);
      out.push(`${this.name}_count${labelText(s.labels)} ${s.value.count}`);
    }
    return out;
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];

  counter(name: string, help: string): Counter {
    return this.add(new Counter(name, help));
  }

  gauge(name: string, help: string, collect: Collect): Gauge {
    return this.add(new Gauge(name, help, collect));
  }

  /** A counter another component keeps (e.g. restart counts), read at scrape time. */
  counterFrom(name: string, help: string, collect: Collect): Gauge {
    return this.add(new Gauge(name, help, collect, "counter"));
  }

  histogram(name: string, help: string, buckets: number[]): Histogram {
    return this.add(
      new Histogram(
        name,
        help,
        [...buckets].sort((a, b) => a - b),
      ),
    );
  }

  /** The exposition text; a gauge whose source fails is left out rather than failing the scrape. */
  render(): string {
    const lines: string[] = [];
    for (const m of this.metrics) {
      try {
        lines.push(...m.render());
      } catch {
        // e.g. the database is unreadable for a moment: the other metrics still matter.
      }
    }
    return `${lines.join("\n")}\n`;
  }

  private add<M extends Metric>(m: M): M {
    this.metrics.push(m);
    return m;
  }
}

/** Content-Type of the text exposition format. */
export const METRICS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
