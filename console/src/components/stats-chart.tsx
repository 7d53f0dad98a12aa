import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ReleaseWithStats } from '../../../client/index.js';
import { useResource } from '../hooks.js';
import { type ChartData, defaultRangeId, RANGES, toChartData } from '../series.js';
import { useSession } from '../session.js';
import { SelectField } from './form.js';
import { Show } from './ui.js';

/** Activations and errors over time for an app (all releases or one), from GET /apps/{id}/stats. */
export function StatsChart(props: { appId: string; releases: ReleaseWithStats[]; refresh?: number }) {
  const { client } = useSession();
  // Until the user picks one, the range follows the app's age (its oldest release; the list is newest first).
  const [picked, setPicked] = useState<string | null>(null);
  const oldest = props.releases.reduce<string | undefined>(
    (min, r) => (min === undefined || r.created_at < min ? r.created_at : min),
    undefined,
  );
  const rangeId = picked ?? defaultRangeId(oldest, Date.now());
  const [moduleId, setModuleId] = useState('');
  const range = RANGES.find((r) => r.id === rangeId) ?? RANGES[1]!;
  const stats = useResource(async () => {
    const toMs = Date.now();
    const fromMs = toMs - range.ms;
    const { series } = await client.apps.stats(props.appId, {
      from: new Date(fromMs).toISOString(),
      to: new Date(toMs).toISOString(),
      interval: range.interval,
    });
    return { series, range: { fromMs, toMs, interval: range.interval } };
  }, [client, props.appId, range.id, props.refresh]);

  return (
    <section class="card chart-card" aria-labelledby="chart-title">
      <div class="chart-head">
        <h2 id="chart-title">Activations and error rate</h2>
        <SelectField
          label="Release"
          hideLabel
          ariaLabel="Release shown in the chart"
          value={moduleId}
          onValue={setModuleId}
          first={{ value: '', label: 'All releases' }}
          choices={props.releases.map((r) => ({ value: r.id, label: `${r.version} (${r.channel})` }))}
        />
        <SelectField
          label="Time range"
          hideLabel
          ariaLabel="Time range"
          value={rangeId}
          onValue={setPicked}
          choices={RANGES.map((r) => ({ value: r.id, label: r.label }))}
        />
      </div>
      <Show resource={stats} label="Loading statistics…">
        {({ series, range: asked }) => <Chart data={toChartData(series, asked, moduleId || undefined)} />}
      </Show>
    </section>
  );
}

function Chart(props: { data: ChartData }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const { data } = props;
  const columns = useMemo(
    () => [data.x, data.activations, data.errorRate] as uPlot.AlignedData,
    [data.x, data.activations, data.errorRate],
  );

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const options: uPlot.Options = {
      width: Math.max(240, el.clientWidth),
      height: 220,
      cursor: { drag: { x: false, y: false } },
      // Error rate has a percentage scale of its own (right axis), at least 0-5 % so that noise near zero
      // does not fill the height.
      scales: { x: { time: true }, pct: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max ?? 0))] } },
      axes: [
        {},
        { label: 'activations', size: 50 },
        { scale: 'pct', side: 1, label: 'error rate', size: 50, grid: { show: false }, values: percentTicks },
      ],
      series: [
        { label: 'time (UTC)' },
        { label: 'Activations', stroke: '#1f6feb', width: 2, fill: 'rgba(31,111,235,0.08)' },
        {
          label: 'Error rate',
          scale: 'pct',
          stroke: '#d1242f',
          width: 2,
          spanGaps: false,
          value: (_u, v) => (v === null ? '—' : `${v.toFixed(1)} %`),
        },
      ],
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    };
    const chart = new uPlot(options, columns, el);
    plot.current = chart;
    // The chart follows its container, so it fits a phone as well as a wide screen.
    const observer = new ResizeObserver(() =>
      chart.setSize({ width: Math.max(240, el.clientWidth), height: 220 }),
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, []);

  useEffect(() => {
    plot.current?.setData(columns);
  }, [columns]);

  const activations = data.activations.reduce((a, b) => a + b, 0);
  const errors = data.errors.reduce((a, b) => a + b, 0);
  const peakRate = Math.max(0, ...data.errorRate.map((r) => r ?? 0));
  return (
    <div>
      <div
        ref={host}
        class="chart"
        data-testid="stats-chart"
        data-activations={activations}
        data-errors={errors}
        data-peak-error-rate={peakRate.toFixed(1)}
      />
      {activations + errors === 0 && <p class="muted small">No activations or errors in this range yet.</p>}
    </div>
  );
}

function percentTicks(_u: uPlot, ticks: number[]): string[] {
  return ticks.map((t) => `${t} %`);
}
