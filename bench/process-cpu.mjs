// CPU and memory used by the benchmark's processes and by the stores, read from /proc (Linux) and Redis
// `INFO cpu`.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (user + system) a live process has used so far, in seconds (clock ticks of 10 ms). */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

// The stores' own CPU, to show where the machine's time goes: Redis reports its own, ClickHouse's server
// processes are read from /proc (Linux) by their command name.
export async function storesCpuSeconds(redis) {
  const info = await redis.info('cpu');
  const field = (name) => Number(info.match(new RegExp(`${name}:([0-9.]+)`))?.[1] ?? 0);
  let clickhouse = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^[0-9]+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('clickhouse')) clickhouse += cpuSeconds(pid);
    } catch {
      // gone meanwhile
    }
  }
  return { redis: field('used_cpu_user') + field('used_cpu_sys'), clickhouse };
}

/** Peak resident set size of a live process (VmHWM), in MiB to one decimal. */
export function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Busy CPU time of the whole machine (all cores, every process), in µs, from /proc/stat. */
export function machineBusyUs() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy, steal is not ours.
  const busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6];
  return busy * 10_000;
}
