import type { CliContext } from './context.js';
import { CliError, EXIT } from './errors.js';

/** What the release asks of a device: the fingerprint (or Expo runtime version) and the binary range. */
export interface GateInput {
  appId: string;
  channel: string;
  fingerprint?: string | undefined;
  runtimeVersion?: string | undefined;
  targetBinaryRange?: string | undefined;
}

/**
 * `ota release --fail-if-incompatible`: asks the service whether any device seen in the last
 * DEVICE_WINDOW_DAYS could run the release, before anything is uploaded, and stops with exit 3 when none
 * could, so a pipeline cannot ship a bundle nobody can run.
 */
export async function requireCompatible(ctx: CliContext, input: GateInput): Promise<void> {
  const answer = await ctx.client.modules.compatibility({
    app_id: input.appId,
    channel: input.channel,
    ...(input.fingerprint ? { fingerprint: input.fingerprint } : {}),
    ...(input.runtimeVersion ? { runtime_version: input.runtimeVersion } : {}),
    ...(input.targetBinaryRange ? { target_binary_range: input.targetBinaryRange } : {}),
  });
  if (answer.compatible) return;
  const asked = [
    input.runtimeVersion && `runtime version ${input.runtimeVersion}`,
    input.fingerprint && `fingerprint ${input.fingerprint}`,
    input.targetBinaryRange && `binary range ${input.targetBinaryRange}`,
  ].filter(Boolean);
  throw new CliError(
    `Incompatible: no device seen on ${answer.channel} in the last ${answer.window_days} days could run this ` +
      `release (${answer.devices_seen} seen${asked.length > 0 ? `; it needs ${asked.join(', ')}` : ''}). ` +
      'Nothing was released. Check the version your builds report, or leave --fail-if-incompatible off to ' +
      'ship ahead of a new binary.',
    EXIT.incompatible,
  );
}
