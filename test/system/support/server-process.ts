import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The path of an executable on PATH or in the sbin/bin folders Debian installs servers into. */
export function findExecutable(...names: string[]): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/sbin', '/usr/bin', '/usr/local/bin', '/sbin'];
  for (const name of names) {
    for (const dir of dirs) {
      if (!dir) continue;
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {}
    }
  }
  return undefined;
}

/**
 * A server binary run in the foreground as a child of the test, its output in a log file, so a test can
 * kill it with any signal and start it again with the same arguments (same ports, same data folder).
 */
export class ServerProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly logFile: string,
    private readonly cwd: string,
  ) {}

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process and waits until `ready` says yes; fails early if the process dies first. */
  async start(ready: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
    const out = openSync(this.logFile, 'a');
    // A process group of its own: ClickHouse's SYSTEM SHUTDOWN signals its whole group, which must not
    // reach the test runner.
    const child = spawn(this.command, this.args, {
      cwd: this.cwd,
      stdio: ['ignore', out, out],
      detached: true,
    });
    closeSync(out);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${this.name} exited while starting (${child.exitCode ?? child.signalCode}):\n${this.log()}`,
        );
      }
      if (await ready().catch(() => false)) return;
      if (Date.now() > deadline) throw new Error(`${this.name} did not become ready:\n${this.log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Stops the process where it stands (SIGSTOP): its sockets stay open and nothing is answered, so a client
   * still takes it for up until it is killed.
   */
  freeze(): void {
    if (this.running) this.child?.kill('SIGSTOP');
  }

  /** Sends the signal and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.running) this.child?.kill(signal);
    await this.exited;
  }

  log(lines = 30): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }
}
