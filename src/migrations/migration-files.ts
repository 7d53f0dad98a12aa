import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../platform/paths.js';

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

/** Numbered plain-SQL files (NNN_name.sql) of one folder under sql/, in order. */
export async function readMigrations(kind: 'postgres' | 'clickhouse'): Promise<MigrationFile[]> {
  const dir = join(projectRoot(), 'sql', kind);
  if (!existsSync(dir)) return [];
  const names = (await readdir(dir)).filter((n) => /^\d{3}_[a-z0-9_]+\.sql$/.test(n)).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/** Splits a file into statements at semicolons that end a line (ClickHouse takes one statement per request). */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) =>
      s
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((s) => s.length > 0);
}
