import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeClickhouseConfig } from '../../../scripts/services/clickhouse-config.mjs';
import { freePort } from '../../helpers/context.js';
import { findExecutable, ServerProcess } from './server-process.js';

async function pingClickHouse(port: number): Promise<boolean> {
  const res = await fetch(`http://127.0.0.1:${port}/ping`, { signal: AbortSignal.timeout(1000) });
  return res.ok && (await res.text()).trim() === 'Ok.';
}

/**
 * A ClickHouse server of the test's own (the same package and generated configuration as the project's
 * instance, in a temporary folder on free ports), so a test can stop it, kill it and start it again while
 * everything else keeps using the shared one.
 */
export class PrivateClickHouse {
  private constructor(
    readonly httpPort: number,
    readonly dir: string,
    private readonly server: ServerProcess,
  ) {}

  static async start(): Promise<PrivateClickHouse> {
    const server = findExecutable('clickhouse-server');
    const multi = server ? undefined : findExecutable('clickhouse');
    if (!server && !multi)
      throw new Error('clickhouse-server is not installed; `npm test` installs it (scripts/test.mjs)');
    const [httpPort, tcpPort, interserverPort] = [await freePort(), await freePort(), await freePort()];
    const dir = await mkdtemp(join(tmpdir(), 'ota-fault-clickhouse-'));
    const configFile = writeClickhouseConfig({ home: dir, httpPort, tcpPort, interserverPort });
    const args = [...(server ? [] : ['server']), `--config-file=${configFile}`];
    const process = new ServerProcess('clickhouse', (server ?? multi)!, args, join(dir, 'stdout.log'), dir);
    const clickhouse = new PrivateClickHouse(httpPort, dir, process);
    await clickhouse.restart();
    return clickhouse;
  }

  get url(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  /** Starts it again on the same ports and data. */
  async restart(): Promise<void> {
    await this.server.start(() => pingClickHouse(this.httpPort), 90_000);
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    return this.server.kill(signal);
  }

  async close(): Promise<void> {
    await this.server.kill('SIGKILL');
    await rm(this.dir, { recursive: true, force: true });
  }
}
