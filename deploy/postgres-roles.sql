-- The service role of docker-compose.yml, run by its `db-roles` step as the schema owner `ota` on every
-- start: created when missing, then its attributes and password set again, so an existing volume converges.
-- Its privileges on tables and sequences come from the migrator (src/migrations/service-grants.ts).
SELECT 'CREATE ROLE ota_service' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'ota_service')
\gexec
ALTER ROLE ota_service LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
  PASSWORD :'service_password';
