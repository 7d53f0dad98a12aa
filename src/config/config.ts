import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { MAX_INGEST_STREAMS, type RedisTarget } from '../platform/redis.js';
import { BUNDLE_ENV, type BundleSettings, parseBundleSettings } from './bundle-settings.js';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.js';

export type { BundleSettings } from './bundle-settings.js';

/**
 * Every setting of every process, parsed and validated once at start-up.
 * Environment variables are documented in docs/reference/configuration.md (a test checks that it lists them).
 */
const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);
/** A whole number of zero or more, as the environment spells it, with its default. */
const Count = (fallback: string) => Type.String({ pattern: '^[0-9]+$', default: fallback });

/**
 * Who may make an account by signing in (SIGNUP): anyone (`open`, the specification's default), only an
 * e-mail with a pending invitation (`invite-only`), or nobody new (`closed`).
 */
export const SIGNUP_MODES = ['open', 'invite-only', 'closed'] as const;
export type SignupMode = (typeof SIGNUP_MODES)[number];

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
  // At least 32 bytes (checked below, in bytes rather than characters).
  AUTH_TOKEN_SECRET: Type.String({ minLength: 1 }),
  AUTH_TOKEN_PREVIOUS_SECRETS: Type.Optional(Type.String()),
  AUTH_TOKEN_TTL_SECONDS: Count('43200'),
  INVITATION_TTL_SECONDS: Count('604800'),
  SIGNUP: Type.Union(
    SIGNUP_MODES.map((m) => Type.Literal(m)),
    { default: 'open' },
  ),
  PASSWORD_RESET_TTL_SECONDS: Count('3600'),
  PASSWORD_RESETS_PER_HOUR: Count('3'),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  SMTP_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
  SMTP_TIMEOUT_MS: Count('10000'),
  WEBHOOK_SECRET_KEY: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Type.Union([Bool], { default: 'false' }),
  WEBHOOK_TIMEOUT_MS: Count('15000'),
  WEBHOOK_CONCURRENCY: Count('64'),
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: Count('4'),
  WEBHOOK_RETRY_BASE_MS: Count('5000'),
  WEBHOOK_RETRY_MAX_DELAY_MS: Count('21600000'),
  WEBHOOK_MAX_ATTEMPTS: Count('12'),
  WEBHOOK_DISPATCH_POLL_MS: Count('1000'),
  BODY_LIMIT_BYTES: Count('1048576'),
  ...BUNDLE_ENV,
  DELTA_BASES: Count('3'),
  DELTA_MIN_SAVING: Type.String({ pattern: '^(0(\\.[0-9]+)?|1(\\.0+)?|\\.[0-9]+)$', default: '0.3' }),
  DELTA_JOB_TIMEOUT_MS: Count('300000'),
  DELTA_PATCH_TIMEOUT_MS: Count('120000'),
  DEVICE_WINDOW_DAYS: Count('30'),
  ROUTING_CACHE_TTL_MS: Count('30000'),
  INGEST_BATCH_SIZE: Count('20000'),
  INGEST_FLUSH_MS: Count('1000'),
  INGEST_CLAIM_IDLE_MS: Count('30000'),
  INGEST_DEAD_LETTER_MAX_ENTRIES: Count('0'),
  INGEST_STREAMS: Count('1'),
  EVENTS_RETENTION_DAYS: Count('90'),
  RATE_LIMIT_SIGNIN_PER_MINUTE: Count('20'),
  RATE_LIMIT_DEVICE_PER_MINUTE: Count('600'),
  RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE: Count('6000'),
  RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT: Count('10'),
  RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK: Count('100'),
  RATE_LIMIT_SIGNIN_FAILURE_WINDOW_MINUTES: Count('15'),
  RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR: Count('0'),
  RATE_LIMIT_FAILURE_DEVICES_PER_ADDRESS_PER_HOUR: Count('10'),
  CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP: Count('10000'),
  CAPACITOR_CHANNEL_ASSIGNMENTS_PER_ADDRESS_PER_HOUR: Count('100'),
  API_COPIES: Count('1'),
  TRUST_PROXY: Type.String({ default: 'false' }),
  SHUTDOWN_GRACE_MS: Count('10000'),
  API_SURFACES: Type.String({ pattern: '^[a-z, ]+$', default: 'device,control,console' }),
  REQUEST_TIMEOUT_MS: Count('30000'),
  KEEP_ALIVE_TIMEOUT_MS: Count('72000'),
  CONNECTION_IDLE_TIMEOUT_MS: Count('90000'),
  MAX_CONNECTIONS: Count('10000'),
  OPERATOR_TOKEN: Type.Optional(Type.String()),
  METRICS_PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$' })),
});

export type RawEnv = Static<typeof EnvSchema>;

export interface Config {
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
  /**
   * Identity tokens: signed with tokenSecret; previousSecrets (a rotation in progress) still verify the
   * tokens they signed.
   */
  auth: { tokenSecret: string; previousSecrets: string[]; tokenTtlSeconds: number };
  /** How long an invitation token can be accepted. */
  invitations: { ttlSeconds: number };
  /** Who may make an account by signing in (SIGNUP). */
  signup: SignupMode;
  /** Password-reset links: how long one works, and how many one e-mail may ask for per hour. */
  passwordResets: { ttlSeconds: number; perHour: number };
  /** Outgoing mail (invitations); none without SMTP_URL. */
  smtp: { url: string; from: string; timeoutMs: number } | null;
  webhooks: {
    secretKey: Buffer;
    allowPrivateTargets: boolean;
    timeoutMs: number;
    concurrency: number;
    perEndpointConcurrency: number;
    /** First retry delay; each later one is 4 times the previous, capped at retryMaxDelayMs, +-20 % jitter. */
    retryBaseMs: number;
    retryMaxDelayMs: number;
    /** Attempts of one delivery (the first one included) before it is marked failed. */
    maxAttempts: number;
    /** Backstop poll of the outbox; commits wake the dispatcher at once through NOTIFY. */
    dispatchPollMs: number;
  };
  http: {
    /** What this process serves (API_SURFACES): device endpoints, the control API, the web console. */
    surfaces: ReadonlySet<Surface>;
    bodyLimitBytes: number;
    shutdownGraceMs: number;
    /** A request's headers and body must have arrived within this (Node answers 408 or closes). */
    requestTimeoutMs: number;
    /** How long an idle keep-alive connection is kept. */
    keepAliveTimeoutMs: number;
    /**
     * A connection on which no byte moves either way for this long is closed, whatever it was doing: a
     * client that stops reading a download lets go of its socket and the file behind it.
     */
    connectionIdleTimeoutMs: number;
    /** Open connections one process accepts; more are closed at once (raise `ulimit -n` to match). */
    maxConnections: number;
    /** Which X-Forwarded-For hops are believed for the client address (TRUST_PROXY). */
    trustProxy: TrustProxy;
  };
  bundles: BundleSettings;
  /**
   * Smaller downloads made by the deltas worker (docs/reference/delta-updates.md): from up to `bases`
   * earlier releases, kept when they save at least `minSaving` (0-1) of the full download. A release's
   * job stops making deltas after `jobTimeoutMs`, one bsdiff run is killed after `patchTimeoutMs`.
   */
  deltas: { bases: number; minSaving: number; jobTimeoutMs: number; patchTimeoutMs: number };
  devices: {
    windowDays: number;
    routingCacheTtlMs: number;
    /** Capacitor channel assignments kept per app, and new ones per client network and hour (0: no limit). */
    capacitorAssignmentsPerApp: number;
    capacitorAssignmentsPerAddressPerHour: number;
  };
  ingest: {
    batchSize: number;
    flushMs: number;
    claimIdleMs: number;
    retentionDays: number;
    /** The dead-letter stream is trimmed to about this many entries (0: kept whole); counts are kept whole. */
    deadLetterMaxEntries: number;
    /** Device event batches are spread by app over this many Redis streams (INGEST_STREAMS). */
    streams: number;
  };
  rateLimits: {
    signinPerMinute: number;
    /** Device requests per app and device id; each API process allows its share (`apiCopies`). */
    devicePerMinute: number;
    /** API processes behind the balancer, among which `devicePerMinute` is divided. */
    apiCopies: number;
    /** Device requests per client address (an IPv6 /64), whatever ids they name; counted per API process. */
    deviceAddressPerMinute: number;
    /**
     * Failed sign-ins of one account (any e-mail asked for) from one client network within the window, after
     * which that network's sign-ins of it wait; 0 = no limit. Never per account alone: anyone could spend it.
     */
    signinFailuresPerAccount: number;
    /** Failed sign-ins from one client network within the window, whatever the accounts; 0 = no limit. */
    signinFailuresPerNetwork: number;
    signinFailureWindowMs: number;
    /** Devices new to a capped workspace that one client address may add per hour; 0 = no limit. */
    newDevicesPerAddressPerHour: number;
    /**
     * Distinct devices one client address (an IPv6 /64) may add to one release's failure counters per
     * clock hour, per API process: what an error spike and its automatic action are decided on.
     */
    failureDevicesPerAddressPerHour: number;
  };
  /** Bearer credential that shows operators /readyz's checks and details, and /metrics; none when unset. */
  operatorToken: string | null;
  /** Port of the worker process's /metrics listener (on HOST); none when unset. */
  metricsPort: number | null;
}

export const SURFACES = ['device', 'control', 'console'] as const;
export type Surface = (typeof SURFACES)[number];

export class ConfigError extends Error {}

/** The settings `npm run blobs:migrate` needs: the disk folder and the bucket, nothing else. */
const BundleEnvSchema = Type.Object(BUNDLE_ENV);

/** Parses only the bundle storage settings (tools that touch nothing but the stores). */
export function loadBundleSettings(env: Record<string, string | undefined> = process.env): BundleSettings {
  return bundleSettings(parseEnv(BundleEnvSchema, env) as RawEnv);
}

/** The bundle storage settings (bundle-settings.ts), or ConfigError naming each mistake. */
function bundleSettings(e: RawEnv): BundleSettings {
  const parsed = parseBundleSettings(e);
  if (Array.isArray(parsed)) throw new ConfigError(`Invalid configuration:\n${parsed.join('\n')}`);
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
  if (lines.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${[...new Set(lines)].join('\n')}`);
  }
  return withDefaults;
}

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const e = parseEnv(EnvSchema, env) as RawEnv;
  const port = Number(e.PORT);
  if (port < 1 || port > 65535)
    throw new ConfigError(`Invalid configuration:\n  PORT: must be 1-65535 (got ${port})`);
  const metricsPort = e.METRICS_PORT === undefined ? null : Number(e.METRICS_PORT);
  if (metricsPort !== null && (metricsPort < 1 || metricsPort > 65535))
    throw new ConfigError(`Invalid configuration:\n  METRICS_PORT: must be 1-65535 (got ${metricsPort})`);
  const int = (v: string) => Number.parseInt(v, 10);
  // Values below these floors would stop the service working (no retries, a zero window): raised to them.
  const atLeast = (floor: number, v: string) => Math.max(floor, int(v));
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === 'object')
    throw new ConfigError(`Invalid configuration:\n  TRUST_PROXY: ${trustProxy.error}`);
  const surfaces = listOf(e.API_SURFACES);
  const unknownSurface = surfaces.filter((v) => !(SURFACES as readonly string[]).includes(v));
  if (surfaces.length === 0 || unknownSurface.length > 0)
    throw new ConfigError(
      `Invalid configuration:\n  API_SURFACES: a comma list of ${SURFACES.join(', ')} (got ${JSON.stringify(e.API_SURFACES)})`,
    );
  const ingestStreams = int(e.INGEST_STREAMS);
  if (ingestStreams < 1 || ingestStreams > MAX_INGEST_STREAMS)
    throw new ConfigError(
      `Invalid configuration:\n  INGEST_STREAMS: must be 1-${MAX_INGEST_STREAMS} (got ${ingestStreams})`,
    );
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
    auth: {
      tokenSecret: e.AUTH_TOKEN_SECRET,
      previousSecrets: listOf(e.AUTH_TOKEN_PREVIOUS_SECRETS),
      tokenTtlSeconds: int(e.AUTH_TOKEN_TTL_SECONDS),
    },
    invitations: { ttlSeconds: atLeast(60, e.INVITATION_TTL_SECONDS) },
    signup: e.SIGNUP,
    passwordResets: {
      ttlSeconds: atLeast(60, e.PASSWORD_RESET_TTL_SECONDS),
      perHour: atLeast(1, e.PASSWORD_RESETS_PER_HOUR),
    },
    smtp: e.SMTP_URL
      ? {
          url: e.SMTP_URL,
          from: e.SMTP_FROM ?? `OTA <no-reply@${new URL(publicUrl).hostname}>`,
          timeoutMs: atLeast(100, e.SMTP_TIMEOUT_MS),
        }
      : null,
    webhooks: {
      secretKey: Buffer.from(e.WEBHOOK_SECRET_KEY, 'hex'),
      allowPrivateTargets: e.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
      timeoutMs: int(e.WEBHOOK_TIMEOUT_MS),
      concurrency: atLeast(1, e.WEBHOOK_CONCURRENCY),
      perEndpointConcurrency: atLeast(1, e.WEBHOOK_PER_ENDPOINT_CONCURRENCY),
      retryBaseMs: atLeast(1, e.WEBHOOK_RETRY_BASE_MS),
      retryMaxDelayMs: atLeast(1, e.WEBHOOK_RETRY_MAX_DELAY_MS),
      maxAttempts: atLeast(1, e.WEBHOOK_MAX_ATTEMPTS),
      dispatchPollMs: atLeast(10, e.WEBHOOK_DISPATCH_POLL_MS),
    },
    http: {
      surfaces: new Set(surfaces as Surface[]),
      bodyLimitBytes: int(e.BODY_LIMIT_BYTES),
      shutdownGraceMs: int(e.SHUTDOWN_GRACE_MS),
      requestTimeoutMs: atLeast(1000, e.REQUEST_TIMEOUT_MS),
      keepAliveTimeoutMs: atLeast(1000, e.KEEP_ALIVE_TIMEOUT_MS),
      connectionIdleTimeoutMs: atLeast(1000, e.CONNECTION_IDLE_TIMEOUT_MS),
      maxConnections: atLeast(1, e.MAX_CONNECTIONS),
      trustProxy,
    },
    bundles,
    deltas: {
      bases: int(e.DELTA_BASES),
      minSaving: Number(e.DELTA_MIN_SAVING),
      // At least a second: 0 would drop every delta.
      jobTimeoutMs: Math.max(1000, int(e.DELTA_JOB_TIMEOUT_MS)),
      patchTimeoutMs: Math.max(1000, int(e.DELTA_PATCH_TIMEOUT_MS)),
    },
    devices: {
      windowDays: atLeast(1, e.DEVICE_WINDOW_DAYS),
      routingCacheTtlMs: int(e.ROUTING_CACHE_TTL_MS),
      capacitorAssignmentsPerApp: atLeast(1, e.CAPACITOR_CHANNEL_ASSIGNMENTS_PER_APP),
      capacitorAssignmentsPerAddressPerHour: int(e.CAPACITOR_CHANNEL_ASSIGNMENTS_PER_ADDRESS_PER_HOUR),
    },
    ingest: {
      batchSize: atLeast(1, e.INGEST_BATCH_SIZE),
      flushMs: atLeast(10, e.INGEST_FLUSH_MS),
      claimIdleMs: atLeast(1000, e.INGEST_CLAIM_IDLE_MS),
      retentionDays: atLeast(1, e.EVENTS_RETENTION_DAYS),
      deadLetterMaxEntries: int(e.INGEST_DEAD_LETTER_MAX_ENTRIES),
      streams: ingestStreams,
    },
    rateLimits: {
      signinPerMinute: atLeast(1, e.RATE_LIMIT_SIGNIN_PER_MINUTE),
      devicePerMinute: atLeast(1, e.RATE_LIMIT_DEVICE_PER_MINUTE),
      apiCopies: atLeast(1, e.API_COPIES),
      deviceAddressPerMinute: atLeast(1, e.RATE_LIMIT_DEVICE_ADDRESS_PER_MINUTE),
      signinFailuresPerAccount: int(e.RATE_LIMIT_SIGNIN_FAILURES_PER_ACCOUNT),
      signinFailuresPerNetwork: int(e.RATE_LIMIT_SIGNIN_FAILURES_PER_NETWORK),
      signinFailureWindowMs: atLeast(1, e.RATE_LIMIT_SIGNIN_FAILURE_WINDOW_MINUTES) * 60_000,
      newDevicesPerAddressPerHour: int(e.RATE_LIMIT_NEW_DEVICES_PER_ADDRESS_PER_HOUR),
      failureDevicesPerAddressPerHour: atLeast(1, e.RATE_LIMIT_FAILURE_DEVICES_PER_ADDRESS_PER_HOUR),
    },
    operatorToken: e.OPERATOR_TOKEN ?? null,
    metricsPort,
  };
}

/** Values this project once published as defaults (docker-compose.yml): a deployment must set its own. */
const PUBLISHED_SECRETS = new Set([
  'development-only-token-secret-change-me-0123456789',
  '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
]);
const MIN_SECRET_BYTES = 32;

/** Secrets shorter than 32 bytes, or published ones, stop the process (values never echoed). */
function secretProblems(env: Record<string, string>): string[] {
  const out: string[] = [];
  const check = (name: string, value: string | undefined) => {
    if (value === undefined || value === '') return;
    if (Buffer.byteLength(value, 'utf8') < MIN_SECRET_BYTES)
      out.push(`  ${name}: must be at least ${MIN_SECRET_BYTES} bytes (openssl rand -hex 32 makes one)`);
    if (PUBLISHED_SECRETS.has(value.toLowerCase()))
      out.push(`  ${name}: is a value published with this project; set a secret of your own`);
  };
  check('AUTH_TOKEN_SECRET', env.AUTH_TOKEN_SECRET);
  for (const previous of listOf(env.AUTH_TOKEN_PREVIOUS_SECRETS))
    check('AUTH_TOKEN_PREVIOUS_SECRETS', previous);
  check('WEBHOOK_SECRET_KEY', env.WEBHOOK_SECRET_KEY);
  check('OPERATOR_TOKEN', env.OPERATOR_TOKEN);
  return out;
}

function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function redact(name: string, value: string | undefined): string | undefined {
  return /SECRET|KEY|URL|TOKEN|PASSWORD/.test(name) ? '<redacted>' : value;
}

/** Names of every environment variable the service reads (docs/reference/configuration.md lists them). */
export const ENV_VARIABLES = Object.keys(EnvSchema.properties);
