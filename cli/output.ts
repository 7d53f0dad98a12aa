import Table from 'cli-table3';

/**
 * Output of a command: with `--json` exactly one JSON document on stdout (for scripts); otherwise text and
 * tables for people. Notes and hints go to stderr so they never mix into piped output.
 */
export class Output {
  /** Terminal width: the terminal's own, else $COLUMNS, else 100 (pipes and logs). */
  readonly width: number;

  constructor(
    readonly json: boolean,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    private readonly stderr: NodeJS.WritableStream = process.stderr,
  ) {
    const columns = (stdout as { columns?: number }).columns ?? Number(process.env.COLUMNS);
    this.width = Number.isInteger(columns) && columns > 0 ? columns : 100;
  }

  /** The command's result: `data` as JSON, or `human()` for people. */
  result(data: unknown, human: () => void): void {
    if (this.json) this.stdout.write(`${JSON.stringify(data ?? null, null, 2)}\n`);
    else human();
  }

  line(text = ''): void {
    this.stdout.write(`${text}\n`);
  }

  note(text: string): void {
    if (!this.json) this.stderr.write(`${text}\n`);
  }

  table(head: string[], rows: Array<Array<string | number>>): void {
    if (rows.length === 0) {
      this.line('(none)');
      return;
    }
    // No colours: tables are read in terminals and in logs alike.
    const table = new Table({ head, style: { head: [], border: [] } });
    for (const row of rows) table.push(row.map((cell) => String(cell)));
    this.line(table.toString());
  }
}

/** Text clipped to `max` characters, the last one an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

export function percent(value: number, digits = 1): string {
  return `${value.toFixed(digits)} %`;
}

/** A 0-1 ratio as a percentage. */
export function ratio(value: number, digits = 1): string {
  return percent(value * 100, digits);
}

export function shortTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}
