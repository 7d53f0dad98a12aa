import pg from 'pg';

/**
 * What the service role (the user of DATABASE_URL) may do. Migrations run as the schema owner and never
 * grant anything themselves: the migrator applies this policy after every run, so a table or sequence a
 * later migration adds is usable by the service at once, and drifted grants are put back. (Default
 * privileges were the alternative; they cover only objects created later by one named role, never revoke,
 * and would put the service role's name into a migration.)
 */
export const SERVICE_GRANTS = {
  /** Every table of the schema, unless listed below. Never TRUNCATE, TRIGGER or REFERENCES. */
  tables: ['SELECT', 'INSERT', 'UPDATE', 'DELETE'],
  /** Read and append only: the service can neither rewrite nor remove what it wrote. */
  appendOnly: ['audit_log'],
  /** The migrator's own bookkeeping. */
  none: ['schema_migrations'],
  /** Identity and serial columns draw from sequences; setval (UPDATE) stays the owner's. */
  sequences: ['USAGE', 'SELECT'],
} as const;

/** The login of a postgres:// URL (the role the API and workers act as). */
export function roleOfUrl(url: string): string {
  return decodeURIComponent(new URL(url).username);
}

/**
 * Puts the service role's privileges in this database exactly as SERVICE_GRANTS says. Run by the schema
 * owner, inside one transaction, so concurrent queries of the service never see a gap. A no-op when the
 * service connects as the owner itself (a one-role set-up, where the owner keeps everything).
 */
export async function applyServiceGrants(client: pg.ClientBase, serviceRole: string): Promise<boolean> {
  const { rows } = await client.query<{ same: boolean; exists: boolean }>(
    `SELECT $1 = current_user AS same, EXISTS (SELECT FROM pg_roles WHERE rolname = $1) AS exists`,
    [serviceRole],
  );
  if (rows[0]!.same) return false;
  if (!rows[0]!.exists) {
    throw new Error(
      `The service role "${serviceRole}" (the user of DATABASE_URL) does not exist; create it as described ` +
        'in docs/operations/database-roles.md before migrating.',
    );
  }
  const role = pg.escapeIdentifier(serviceRole);
  const present = async (table: string) =>
    (await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [`public.${table}`]))
      .rows[0]!.t !== null;
  const statements = [
    'BEGIN',
    `GRANT CONNECT ON DATABASE ${pg.escapeIdentifier(await currentDatabase(client))} TO ${role}`,
    `GRANT USAGE ON SCHEMA public TO ${role}`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA public FROM ${role}`,
    `GRANT ${SERVICE_GRANTS.tables.join(', ')} ON ALL TABLES IN SCHEMA public TO ${role}`,
    `REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM ${role}`,
    `GRANT ${SERVICE_GRANTS.sequences.join(', ')} ON ALL SEQUENCES IN SCHEMA public TO ${role}`,
  ];
  try {
    for (const sql of statements) await client.query(sql);
    for (const table of SERVICE_GRANTS.appendOnly) {
      if (await present(table))
        await client.query(`REVOKE UPDATE, DELETE ON ${pg.escapeIdentifier(table)} FROM ${role}`);
    }
    for (const table of SERVICE_GRANTS.none) {
      if (await present(table))
        await client.query(`REVOKE ALL ON ${pg.escapeIdentifier(table)} FROM ${role}`);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
  return true;
}

async function currentDatabase(client: pg.ClientBase): Promise<string> {
  return (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
}
