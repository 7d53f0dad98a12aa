/** Types of postgres.mjs for the TypeScript that imports it (the bootstrap's system test). */
export const PG_OWNER: { name: string; password: string };
export const PG_SERVICE: { name: string; password: string };
export function postgresRolesSql(): string;
export function ensurePostgresRoles(options?: { port?: number; socketDir?: string }): Promise<{
  DATABASE_URL: string;
  DATABASE_MIGRATION_URL: string;
}>;
