import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (the folder holding package.json), from source and from the compiled dist/ alike. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'sql'))) return dir;
    dir = resolve(dir, '..');
  }
  throw new Error('project root not found (no package.json with sql/ above this file)');
}
