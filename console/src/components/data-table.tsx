import type { ComponentChildren } from 'preact';

export interface Column<T> {
  /** The header, and the label each cell carries when a phone shows a row as a card. */
  label: string;
  /** A header read by screen readers only (a column of buttons). */
  hideLabel?: boolean;
  /** Long unbroken text (e-mails, ids) may break anywhere rather than widen the table. */
  wrap?: boolean;
  class?: string;
  testId?: string;
  cell: (row: T) => ComponentChildren;
}

/**
 * The console's list tables (members, API keys, deployment keys, counted devices). On a desktop a table;
 * below 520 px each row becomes a card of `label: value` lines (`table.stack` in pages.css), so a phone
 * never squeezes a column to one character per line or scrolls the page sideways.
 */
export function DataTable<T>(props: {
  testId: string;
  columns: Array<Column<T>>;
  rows: T[];
  rowKey: (row: T) => string;
}) {
  return (
    <div class="table-wrap">
      <table class="stack" data-testid={props.testId}>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col">
                {c.hideLabel ? <span class="visually-hidden">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((c) => (
                <td
                  key={c.label}
                  data-label={c.hideLabel ? undefined : c.label}
                  data-testid={c.testId}
                  class={[c.wrap ? 'wrap' : '', c.class ?? ''].join(' ').trim() || undefined}
                >
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The last column of a list table: one red button a row (revoke, delete, release), for those allowed. */
export function dangerColumn<T>(button: string, onClick: (row: T) => void, allowed = true): Column<T> {
  return {
    label: 'Actions',
    hideLabel: true,
    cell: (row) =>
      allowed && (
        <button type="button" class="danger small" onClick={() => onClick(row)}>
          {button}
        </button>
      ),
  };
}
