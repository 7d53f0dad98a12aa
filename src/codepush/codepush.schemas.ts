import { DEVICE_ID_PATTERN } from '@ota/shared/ids';
import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { APP_VERSION_PATTERN } from '../releases/binary-range.js';
import { VERSION_PATTERN } from '../releases/releases.rules.js';
import { DEPLOYMENT_KEY_PATTERN } from './deployment-keys.schemas.js';

/**
 * The CodePush acquisition API's wire format (the `code-push` package's acquisition SDK, and the service it
 * spoke to). The current paths (`/v0.1/public/codepush/...`) use snake_case names; the legacy paths
 * (`/updateCheck`, `/reportStatus/...`) the same fields in camelCase. Each field is declared once here, under
 * the name the adapter uses, with both of its wire names.
 */
export type Casing = 'snake' | 'camel';

export interface Field {
  snake: string;
  camel: string;
  schema: TSchema;
  required?: boolean;
}

// Every pattern here ends in `{m,n}$`: its n is also the declared maximum length, so the OpenAPI document
// (and the abuse tests that read it) state each field's bound.
const text = (pattern: string, description: string) =>
  Type.String({ pattern, maxLength: maxLengthOf(pattern), description });

function maxLengthOf(pattern: string): number {
  const bound = /\{\d+,(\d+)\}\$$/.exec(pattern)?.[1];
  if (bound === undefined) throw new Error(`pattern ${pattern} has no length bound`);
  return Number(bound);
}
const PRINTABLE_128 = '^[\\x21-\\x7e]{1,128}$';

const deploymentKey: Field = {
  snake: 'deployment_key',
  camel: 'deploymentKey',
  schema: text(DEPLOYMENT_KEY_PATTERN, 'the deployment key (app and channel)'),
  required: true,
};
const appVersion: Field = {
  snake: 'app_version',
  camel: 'appVersion',
  schema: text(APP_VERSION_PATTERN, 'the native app version (semver; "1.2" and "3" read as 1.2.0 and 3.0.0)'),
  required: true,
};
const clientUniqueId = (required: boolean): Field => ({
  snake: 'client_unique_id',
  camel: 'clientUniqueId',
  schema: text(DEVICE_ID_PATTERN, 'the device id: 1-128 of A-Za-z0-9._:-; it picks the rollout bucket'),
  required,
});
const label = (required: boolean): Field => ({
  snake: 'label',
  camel: 'label',
  schema: text(VERSION_PATTERN, 'a release version'),
  required,
});

export const UPDATE_CHECK_FIELDS = {
  deploymentKey,
  appVersion,
  clientUniqueId: clientUniqueId(true),
  label: label(false),
  packageHash: {
    snake: 'package_hash',
    camel: 'packageHash',
    schema: text(PRINTABLE_128, 'hash of the package the device runs'),
  },
  isCompanion: {
    snake: 'is_companion',
    camel: 'isCompanion',
    schema: Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: 'accepted and ignored: binary ranges always apply',
    }),
  },
} satisfies Record<string, Field>;

export const DEPLOY_REPORT_FIELDS = {
  deploymentKey,
  appVersion,
  clientUniqueId: clientUniqueId(false),
  label: label(false),
  status: {
    snake: 'status',
    camel: 'status',
    schema: Type.Union([Type.Literal('DeploymentSucceeded'), Type.Literal('DeploymentFailed')], {
      description: 'required with a label',
    }),
  },
  previousLabelOrAppVersion: {
    snake: 'previous_label_or_app_version',
    camel: 'previousLabelOrAppVersion',
    schema: text(VERSION_PATTERN, 'what the device ran before'),
  },
  previousDeploymentKey: {
    snake: 'previous_deployment_key',
    camel: 'previousDeploymentKey',
    schema: text(PRINTABLE_128, 'the key the device used before'),
  },
} satisfies Record<string, Field>;

export const DOWNLOAD_REPORT_FIELDS = {
  deploymentKey,
  clientUniqueId: clientUniqueId(true),
  label: label(true),
} satisfies Record<string, Field>;

/** The request schema of one casing: unknown fields are allowed, as newer SDKs may send more. */
export function wireSchema(fields: Record<string, Field>, casing: Casing): TObject {
  const properties: Record<string, TSchema> = {};
  for (const f of Object.values(fields)) {
    properties[f[casing]] = f.required ? f.schema : Type.Optional(f.schema);
  }
  return Type.Object(properties);
}

// A field list's entries, listed once: every update check and report reads its parameters through them.
const fieldEntries = new WeakMap<Record<string, Field>, Array<[string, Field]>>();
function entriesOf(fields: Record<string, Field>): Array<[string, Field]> {
  let entries = fieldEntries.get(fields);
  if (entries === undefined) {
    entries = Object.entries(fields);
    fieldEntries.set(fields, entries);
  }
  return entries;
}

/** A validated request read back into the adapter's names (absent fields are left out). */
export function fromWire<F extends Record<string, Field>>(
  fields: F,
  casing: Casing,
  input: Record<string, unknown>,
): { [K in keyof F]?: string } {
  const out: Record<string, string> = {};
  for (const [name, f] of entriesOf(fields)) {
    const value = input[f[casing]];
    if (typeof value === 'string') out[name] = value;
  }
  return out as { [K in keyof F]?: string };
}

/** What an update check answers (API.md): `update_info`, in snake_case or, on the legacy path, camelCase. */
export interface UpdateInfo {
  isAvailable: boolean;
  downloadUrl: string;
  packageHash: string;
  label: string;
  appVersion: string;
  targetBinaryRange: string;
  description: string;
  isMandatory: boolean;
  packageSize: number;
  shouldRunBinaryVersion: boolean;
  updateAppVersion: boolean;
}

export const UpdateCheckAnswer = Type.Object({
  update_info: Type.Object({
    is_available: Type.Boolean(),
    download_url: Type.String({ description: 'absolute URL of the package bytes; "" when none' }),
    package_hash: Type.String({ description: 'the release sha256' }),
    label: Type.String({ description: 'the release version' }),
    app_version: Type.String(),
    target_binary_range: Type.String({
      description:
        "the device's own app_version when an update is available (clients keep it with the package and " +
        'discard a package whose version differs from the binary); otherwise the newest release range, or *',
    }),
    description: Type.String({ description: 'the release notes' }),
    is_mandatory: Type.Boolean(),
    package_size: Type.Integer({ description: 'bytes' }),
    should_run_binary_version: Type.Boolean(),
    update_app_version: Type.Boolean(),
  }),
});

export const LegacyUpdateCheckAnswer = Type.Object({
  updateInfo: Type.Object({
    isAvailable: Type.Boolean(),
    downloadURL: Type.String(),
    packageHash: Type.String(),
    label: Type.String(),
    appVersion: Type.String(),
    target_binary_range: Type.String(),
    description: Type.String(),
    isMandatory: Type.Boolean(),
    packageSize: Type.Integer(),
    shouldRunBinaryVersion: Type.Boolean(),
    updateAppVersion: Type.Boolean(),
  }),
});

export function snakeAnswer(info: UpdateInfo) {
  return {
    update_info: {
      is_available: info.isAvailable,
      download_url: info.downloadUrl,
      package_hash: info.packageHash,
      label: info.label,
      app_version: info.appVersion,
      target_binary_range: info.targetBinaryRange,
      description: info.description,
      is_mandatory: info.isMandatory,
      package_size: info.packageSize,
      should_run_binary_version: info.shouldRunBinaryVersion,
      update_app_version: info.updateAppVersion,
    },
  };
}

export function camelAnswer(info: UpdateInfo) {
  return {
    updateInfo: {
      isAvailable: info.isAvailable,
      downloadURL: info.downloadUrl,
      packageHash: info.packageHash,
      label: info.label,
      appVersion: info.appVersion,
      target_binary_range: info.targetBinaryRange,
      description: info.description,
      isMandatory: info.isMandatory,
      packageSize: info.packageSize,
      shouldRunBinaryVersion: info.shouldRunBinaryVersion,
      updateAppVersion: info.updateAppVersion,
    },
  };
}
