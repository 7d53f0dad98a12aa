import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../src/migrations/postgres-migrator.js';
import { fileContext, signUp } from '../../helpers/context.js';

// The API and the workers connect with DATABASE_URL, as ctx.deps.db does here; migrations run as the
// schema-owning role of DATABASE_MIGRATION_URL (ctx.ownerDb).
const ctx = fileContext();

const INSUFFICIENT_PRIVILEGE = '42501';

async function auditRows(workspaceId: string): Promise<unknown[]> {
  const { rows } = await ctx.deps.db.query(
    'SELECT seq, actor, action, details, hash FROM audit_log WHERE workspace_id = $1 ORDER BY seq',
    [workspaceId],
  );
  return rows;
}

describe('the role the service connects as', () => {
  it('cannot switch the audit log’s triggers off, rewrite, delete or empty it', async () => {
    const owner = await signUp(ctx.app);
    const before = await auditRows(owner.workspaceId);
    expect(before).toHaveLength(2);
    const statements = [
      'ALTER TABLE audit_log DISABLE TRIGGER ALL',
      'ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_update',
      'ALTER TABLE audit_log OWNER TO CURRENT_USER',
      'DROP TRIGGER audit_log_no_update ON audit_log',
      `UPDATE audit_log SET actor = 'mallory@example.com' WHERE workspace_id = '${owner.workspaceId}'`,
      `DELETE FROM audit_log WHERE workspace_id = '${owner.workspaceId}'`,
      'TRUNCATE audit_log',
      'SET session_replication_role = replica',
    ];
    for (const sql of statements) {
      await expect(ctx.deps.db.query(sql), sql).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    }
    expect(await auditRows(owner.workspaceId)).toEqual(before);
  });

  it('is no superuser, cannot bypass row security, make roles or databases, and owns nothing', async () => {
    const { rows } = await ctx.deps.db.query(
      `SELECT r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolcreatedb, r.rolreplication,
              (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE c.relowner = r.oid AND n.nspname = 'public') AS owned,
              (SELECT count(*)::int FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                WHERE p.proowner = r.oid AND n.nspname = 'public') AS owned_functions,
              has_schema_privilege(r.oid, 'public', 'CREATE') AS can_create
         FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows[0]).toEqual({
      rolsuper: false,
      rolbypassrls: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolreplication: false,
      owned: 0,
      owned_functions: 0,
      can_create: false,
    });
  });

  it('reads and writes every table, but only reads and appends to audit_log', async () => {
    const { rows } = await ctx.deps.db.query<{ table: string; privileges: string[] }>(
      `SELECT c.relname AS table,
              array_remove(ARRAY[
                CASE WHEN has_table_privilege(c.oid, 'SELECT') THEN 'SELECT' END,
                CASE WHEN has_table_privilege(c.oid, 'INSERT') THEN 'INSERT' END,
                CASE WHEN has_table_privilege(c.oid, 'UPDATE') THEN 'UPDATE' END,
                CASE WHEN has_table_privilege(c.oid, 'DELETE') THEN 'DELETE' END,
                CASE WHEN has_table_privilege(c.oid, 'TRUNCATE') THEN 'TRUNCATE' END,
                CASE WHEN has_table_privilege(c.oid, 'TRIGGER') THEN 'TRIGGER' END,
                CASE WHEN has_table_privilege(c.oid, 'REFERENCES') THEN 'REFERENCES' END
              ], NULL) AS privileges
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
    );
    expect(rows.length).toBeGreaterThan(10);
    for (const { table, privileges } of rows) {
      if (table === 'audit_log') expect(privileges, table).toEqual(['SELECT', 'INSERT']);
      else if (table === 'schema_migrations') expect(privileges, table).toEqual([]);
      else expect(privileges, table).toEqual(['SELECT', 'INSERT', 'UPDATE', 'DELETE']);
    }
  });

  it('gets its grants on tables and sequences a later migration adds, without the migration naming it', async () => {
    // What a later migration does: a new table with an identity column and a serial one, no GRANT.
    await ctx.ownerDb.query(
      'CREATE TABLE later_feature (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, n serial, note text)',
    );
    await expect(ctx.deps.db.query(`INSERT INTO later_feature (note) VALUES ('x')`)).rejects.toMatchObject({
      code: INSUFFICIENT_PRIVILEGE,
    });
    // The migrator grants after every run, pending migrations or not.
    await migratePostgres(ctx.ownerDb, undefined, { serviceRole: new URL(ctx.env.DATABASE_URL!).username });
    await ctx.deps.db.query(`INSERT INTO later_feature (note) VALUES ('x')`);
    await ctx.deps.db.query(`UPDATE later_feature SET note = 'y'`);
    const { rows } = await ctx.deps.db.query('SELECT id, n, note FROM later_feature');
    expect(rows).toEqual([{ id: 1, n: 1, note: 'y' }]);
    await expect(ctx.deps.db.query('TRUNCATE later_feature')).rejects.toMatchObject({
      code: INSUFFICIENT_PRIVILEGE,
    });
  });

  it('is a different login from the schema owner, which migrations use', async () => {
    const service = new URL(ctx.env.DATABASE_URL!).username;
    const owner = new URL(ctx.env.DATABASE_MIGRATION_URL!).username;
    expect(service).not.toBe(owner);
    const client = new pg.Client({ connectionString: ctx.env.DATABASE_MIGRATION_URL });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT current_user AS who, (SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'audit_log') AS audit_owner`,
      );
      expect(rows[0]).toEqual({ who: owner, audit_owner: owner });
    } finally {
      await client.end();
    }
  });
});
