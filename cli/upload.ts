import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { OtaClient } from '@ota/client/client';
import type { Bundle } from '@ota/client/types';
import cliProgress from 'cli-progress';
import { CliError } from './errors.js';
import { transferText } from './progress.js';
import { terminalTouched } from './terminal.js';

/** Size of a bundle file, with clear errors for a missing, empty or non-regular file. */
export async function bundleSize(path: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(path);
  } catch {
    throw new CliError(`The bundle file ${path} does not exist or cannot be read.`);
  }
  if (!info.isFile()) throw new CliError(`${path} is not a file.`);
  if (info.size === 0) throw new CliError(`The bundle file ${path} is empty.`);
  return info.size;
}

/**
 * Streams the file to PUT /apps/{id}/bundles (never loaded whole into memory) while a progress bar on
 * stderr shows megabytes sent, speed and time left. Each attempt re-opens the file, so a retried upload starts clean.
 */
export async function uploadBundle(
  client: OtaClient,
  appId: string,
  path: string,
  options: { progress: boolean },
): Promise<Bundle> {
  const size = await bundleSize(path);
  const bar = options.progress
    ? new cliProgress.SingleBar(
        {
          format: 'Uploading |{bar}| {percentage}% {transfer}',
          hideCursor: true,
          clearOnComplete: false,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const open = () => {
    let sent = 0;
    const started = Date.now();
    if (bar) terminalTouched();
    bar?.start(size, 0, { transfer: transferText(0, size, 0) });
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        bar?.update(sent, { transfer: transferText(sent, size, Date.now() - started) });
        controller.enqueue(chunk);
      },
    });
    const file = Readable.toWeb(createReadStream(path)) as unknown as ReadableStream<Uint8Array>;
    return file.pipeThrough(counter);
  };
  try {
    return await client.apps.uploadBundle(appId, open, { size });
  } finally {
    bar?.stop();
  }
}
