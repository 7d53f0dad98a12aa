import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { RedisTarget } from '../platform/redis.js';
import { ACCOUNT_ENV, type AccountSettings, accountSettings } from './accounts.js';
import { BUNDLE_ENV, type BundleSettings, parseBundleSettings } from './bundle-settings.js';
import { DELTA_ENV, type DeltaSettings, deltaSettings } from './deltas.js';
import { DEVICE_ENV, type DeviceSettings, deviceSettings } from './devices.js';
import { Bool, invalid } from './env.js';
import { HTTP_ENV, type HttpSettings, httpSettings } from './http.js';
import { INGEST_ENV, type IngestSettings, ingestSettings } from './ingest.js';
import { RATE_LIMIT_ENV, type RateLimitSettings, rateLimitSettings } from './rate-limits.js';
import { redact, secretProblems } from './secrets.js';
import { WEBHOOK_ENV, type WebhookSettings, webhookSettings } from './webhooks.js';

/**
 * Every setting of every process, parsed and validated once at start-up: each area's variables and their
 * parsing live in the area's file (http.ts, accounts.ts, webhooks.ts, bundle-settings.ts, deltas.ts,
 * devices.ts, ingest.ts, rate-limits.ts); this file joins them into one schema and one Config.
 * Environment variables are documented in docs/reference/configuration.md (a test checks that it lists them).
 */

const EnvSchema = Type.Object({
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.String({ pattern: '^[0-9]{1,5}$', default: '8080' }),
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  DATABASE_MIGRATION_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  REDIS_URL: Type.String({ pattern: '^rediss?://' }),
  REDIS_CLUSTER: Type.Union([Bool], { default: 'false' }),
  REDIS_KEY_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$', default: 'ota' }),
  CLICKHOUSE_URL: Type.String({ pattern: '^https?://' }),
  CLICKHOUSE_DATABASE: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$', default: 'ota' }),
  CLICKHOUSE_CLUSTER: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' })),
  ...ACCOUNT_ENV,
  ...WEBHOOK_ENV,
  ...HTTP_ENV,
  ...BUNDLE_ENV,
  ...DELTA_ENV,
  ...DEVICE_ENV,
  ...INGEST_ENV,
  ...RATE_LIMIT_ENV,
  OPERATOR_TOKEN: Type.Optional(Type.String()),
  METRICS_PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$' })),
});

export type RawEnv = Static<typeof EnvSchema>;

export interface Config extends AccountSettings {
  host: string;
  port: number;
  publicUrl: string;
  logLevel: string;
  /** The service role: what the API and workers connect as (only the grants they need). */
  databaseUrl: string;
  /** The schema owner, for migrations only; DATABASE_URL when unset (one role for both). */
  databaseMigrationUrl: string;
  /** REDIS_URL, and whether it is the seed node of a Redis Cluster (REDIS_CLUSTER). */
  redis: RedisTarget;
  /** Every Redis key and BullMQ queue of this deployment starts with it; tests use one per file. */
  redisKeyPrefix: string;
  clickhouseUrl: string;
  clickhouseDatabase: string;
  /** CLICKHOUSE_CLUSTER: the cluster the tables are sharded over (null: one server). */
  clickhouseCluster: string | null;
  webhooks: WebhookSettings;
  http: HttpSettings;
  bundles: BundleSettings;
  deltas: DeltaSettings;
  devices: DeviceSettings;
  ingest: IngestSettings;
  rateLimits: RateLimitSettings;
  /** Bearer credential that shows operators /readyz's checks and details, and /metrics; none when unset. */
  operatorToken: string | null;
  /** Port of the worker process's /metrics listener (on HOST); none when unset. */
  metricsPort: number | null;
}

/** The settings `npm run blobs:migrate` needs: the disk folder and the bucket, nothing else. */
const BundleEnvSchema = Type.Object(BUNDLE_ENV);

/** Parses only the bundle storage settings (tools that touch nothing but the stores). */
export function loadBundleSettings(env: Record<string, string | undefined> = process.env): BundleSettings {
  return bundleSettings(parseEnv(BundleEnvSchema, env) as RawEnv);
}

/** The bundle storage settings (bundle-settings.ts), or ConfigError naming each mistake. */
function bundleSettings(e: RawEnv): BundleSettings {
  const parsed = parseBundleSettings(e);
  if (Array.isArray(parsed)) throw invalid(parsed);
  return parsed;
}

/** Picks the schema's variables, applies defaults and throws ConfigError naming every bad one. */
function parseEnv(
  schema: typeof EnvSchema | typeof BundleEnvSchema,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const withDefaults = Value.Default(schema, picked) as Record<string, string>;
  const errors = [...Value.Errors(schema, withDefaults)];
  const lines = errors.map((e) => {
    const name = e.path.replace(/^\//, '') || '(environment)';
    const shown = name in withDefaults ? ` (got ${JSON.stringify(redact(name, withDefaults[name]))})` : '';
    return `  ${name}: ${e.message}${shown}`;
  });
  if (schema === EnvSchema) lines.push(...secretProblems(withDefaults));
  if (lines.length > 0) throw invalid([...new Set(lines)]);
  return withDefaults;
}

/** A port number of 1-65535, or ConfigError naming the variable. */
function portOf(name: string, value: string): number {
  const port = Number(value);
  if (port < 1 || port > 65535) throw invalid([`  ${name}: must be 1-65535 (got ${port})`]);
  return port;
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = parseEnv(EnvSchema, env) as RawEnv;
  const port = portOf('PORT', e.PORT);
  const metricsPort = e.METRICS_PORT === undefined ? null : portOf('METRICS_PORT', e.METRICS_PORT);
  const http = httpSettings(e);
  const ingest = ingestSettings(e);
  const bundles = bundleSettings(e);
  const publicUrl = (
    e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${port}`
  ).replace(/\/+$/, '');
  return {
    host: e.HOST,
    port,
    publicUrl,
    logLevel: e.LOG_LEVEL,
    databaseUrl: e.DATABASE_URL,
    databaseMigrationUrl: e.DATABASE_MIGRATION_URL ?? e.DATABASE_URL,
    redis: { url: e.REDIS_URL, cluster: e.REDIS_CLUSTER === 'true' },
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    clickhouseUrl: e.CLICKHOUSE_URL,
    clickhouseDatabase: e.CLICKHOUSE_DATABASE,
    clickhouseCluster: e.CLICKHOUSE_CLUSTER ?? null,
    ...accountSettings(e, publicUrl),
    webhooks: webhookSettings(e),
    http,
    bundles,
    deltas: deltaSettings(e),
    devices: deviceSettings(e),
    ingest,
    rateLimits: rateLimitSettings(e),
    operatorToken: e.OPERATOR_TOKEN ?? null,
    metricsPort,
  };
}

/** Names of every environment variable the service reads (docs/reference/configuration.md lists them). */
export const ENV_VARIABLES = Object.keys(EnvSchema.properties);
