import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Tests run the packages' TypeScript sources: the `ota-source` condition of shared/, client/ and sdk/
// `exports` points at them, so `@ota/client/errors` needs no build of the package first.
// Set on each project: inline projects do not inherit the root's `resolve`.
const conditions = ['ota-source', ...defaultServerConditions];
const packages = { resolve: { conditions }, ssr: { resolve: { conditions } } };

/** The integration files that run on both blob stores (the shipped disk default, then S3). */
const S3_FILES = [
  'test/integration/storage/blob-store.test.ts',
  'test/integration/storage/upload-cut.test.ts',
  'test/integration/storage/blob-retention.test.ts',
  'test/integration/releases/bundles.test.ts',
  'test/integration/releases/push.test.ts',
  'test/integration/updates/end-to-end.test.ts',
  'test/integration/codepush/acquisition.test.ts',
  'test/integration/codepush/package-hash.test.ts',
  'test/integration/codepush/react-native-client.test.ts',
  'test/integration/expo/manifest.test.ts',
  'test/integration/expo/client-versions.test.ts',
  'test/integration/deltas/expo-patches.test.ts',
  'test/integration/deltas/codepush-diffs.test.ts',
  'test/integration/capacitor/updates.test.ts',
  'test/integration/capacitor/manifest.test.ts',
  'test/integration/capacitor/plugin-checksums.test.ts',
  'test/integration/capacitor/plugin-fixtures.test.ts',
];

export default defineConfig({
  test: {
    // Integration files wait mostly on Postgres, Redis and ClickHouse; a few more forks than cores helps.
    poolOptions: { forks: { maxForks: 4, minForks: 1 } },
    projects: [
      {
        ...packages,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Property tests run thousands of cases; a loaded CI machine must not turn them into time-outs.
          testTimeout: 20_000,
        },
      },
      {
        ...packages,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/helpers/global-setup.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...packages,
        test: {
          // The storage, release, update-check, CodePush, Expo and Capacitor files again, with bundles in the S3 bucket
          // npm test starts (test/helpers/test-buckets.ts): each file gets a bucket of its own.
          name: 'integration-s3',
          include: S3_FILES,
          env: { OTA_TEST_BLOB_STORE: 's3' },
          environment: 'node',
          globalSetup: ['test/helpers/global-setup.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        ...packages,
        test: {
          // Real processes (API, workers, private Redis and ClickHouse servers) killed and restarted.
          name: 'system',
          include: ['test/system/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/dist-build-setup.ts'],
          pool: 'forks',
          // Last, in a group of their own: they start processes and servers and kill them, and must neither
          // slow the other groups' files down nor be slowed down by them.
          sequence: { groupOrder: 2 },
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      {
        ...packages,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          // The migrated Postgres template, then one console build for the whole run.
          globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/console-build-setup.ts'],
          pool: 'forks',
          // After the unit and integration files (group 0): a Chromium per file competes with them for the CPU.
          sequence: { groupOrder: 1 },
          // A page under a loaded machine can take seconds to follow an action; polls wait like locators do.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      // On the cluster engines (a Redis Cluster with replicas, two ClickHouse shards with ZooKeeper), which
      // `npm run test:cluster` starts and names in OTA_CLUSTER_*: only then, not in `npm test`.
      ...(process.env.OTA_CLUSTER_REDIS_URL
        ? [
            {
              ...packages,
              test: {
                name: 'cluster',
                include: ['test/cluster/**/*.test.ts'],
                environment: 'node',
                globalSetup: ['test/helpers/global-setup.ts'],
                pool: 'forks' as const,
                // One file at a time: the engines are shared, and a failover test stops one of them.
                poolOptions: { forks: { singleFork: true } },
                testTimeout: 120_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
  },
});
