import type { Logger } from './logger.js';
import type { Queryable } from './postgres.js';

export interface DatabaseRole {
  role: string;
  superuser: boolean;
  bypass_rls: boolean;
  /** Tables, sequences and functions of the schema it owns: an owner can switch any trigger off. */
  owned_objects: number;
  /** None of the above: the append-only audit log holds against the service itself. */
  least_privilege: boolean;
}

/** What the role the service connects as (DATABASE_URL) may do beyond its grants. */
export async function inspectDatabaseRole(db: Queryable): Promise<DatabaseRole> {
  const { rows } = await db.query<Omit<DatabaseRole, 'least_privilege'>>(
    `SELECT r.rolname AS role, r.rolsuper AS superuser, r.rolbypassrls AS bypass_rls,
            (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE c.relowner = r.oid AND n.nspname = 'public')
          + (SELECT count(*)::int FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
              WHERE p.proowner = r.oid AND n.nspname = 'public') AS owned_objects
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const row = rows[0]!;
  return { ...row, least_privilege: !row.superuser && !row.bypass_rls && row.owned_objects === 0 };
}

/**
 * Logs a warning when the API or a worker connects as a superuser or the schema owner (a one-role set-up,
 * or DATABASE_URL pointing at the migration role): it still works, but the audit log's append-only
 * trigger then holds only against others. Postgres being away at start is not this check's business.
 */
export function warnIfPrivileged(db: Queryable, log: Logger): void {
  inspectDatabaseRole(db)
    .then((r) => {
      if (!r.least_privilege)
        log.warn(
          { database_role: r },
          'DATABASE_URL connects as a superuser or the schema owner; give the service its own role (docs/operations/database-roles.md)',
        );
    })
    .catch(() => {});
}
