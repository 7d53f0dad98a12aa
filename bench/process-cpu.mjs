// CPU used by the benchmark's processes and by the stores, read from /proc (Linux) and Redis `INFO cpu`.
import { readdirSync, readFileSync } from 'node:fs';

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
