import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DEFAULT_CHANNEL, isUuid } from '@ota/shared/ids';
import { CliError } from './errors.js';

/** The project file `ota init` writes beside an app's code, so `--app` need not be typed again. */
export const PROJECT_FILE = '.ota.json';

export interface ProjectFile {
  app_id: string;
  /** The channel `ota release` uses when no --channel is given. */
  channel: string;
  /** Where it was found, for messages. */
  path: string;
}

/** The nearest `.ota.json` in `start` or a folder above it, like git finds its repository. */
export async function findProject(start: string = process.cwd()): Promise<ProjectFile | undefined> {
  let dir = start;
  for (;;) {
    const path = join(dir, PROJECT_FILE);
    const raw = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw new CliError(`Cannot read ${path}: ${err.message}`);
    });
    if (raw !== undefined) return parseProject(raw, path);
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function parseProject(raw: string, path: string): ProjectFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new CliError(`${path} is not valid JSON; run \`ota init\` again.`);
  }
  const fields = (parsed ?? {}) as { app_id?: unknown; channel?: unknown };
  if (typeof fields.app_id !== 'string' || !isUuid(fields.app_id)) {
    throw new CliError(`${path} has no valid "app_id"; run \`ota init\` again.`);
  }
  const channel =
    typeof fields.channel === 'string' && fields.channel !== '' ? fields.channel : DEFAULT_CHANNEL;
  return { app_id: fields.app_id.toLowerCase(), channel, path };
}

export async function writeProject(
  dir: string,
  project: { app_id: string; channel: string },
): Promise<string> {
  const path = join(dir, PROJECT_FILE);
  await writeFile(path, `${JSON.stringify({ app_id: project.app_id, channel: project.channel }, null, 2)}\n`);
  return path;
}
