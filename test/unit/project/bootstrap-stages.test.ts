import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The bootstrap runs on a machine that has only Node.js and npm: everything the entry scripts load before
 * ensureDependencies() has run (their static imports, followed through scripts/) must come from Node's
 * standard library. The probes that use client libraries are loaded with import() after it.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const ENTRIES = [
  'scripts/bootstrap.mjs',
  'scripts/start.mjs',
  'scripts/test.mjs',
  'scripts/stop-services.mjs',
];
const STATIC_IMPORT = /^(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]/gm;

function staticImports(file: string): string[] {
  return [...readFileSync(join(ROOT, file), 'utf8').matchAll(STATIC_IMPORT)].map((m) => m[1]!);
}

/** Packages (not project files) loaded at start-up by `entry`, each with its chain of imports. */
function packagesLoadedBy(entry: string): string[] {
  const seen = new Set([entry]);
  const queue: Array<[string, string[]]> = [[entry, [entry]]];
  const found: string[] = [];
  while (queue.length > 0) {
    const [file, chain] = queue.shift()!;
    for (const specifier of staticImports(file)) {
      if (!specifier.startsWith('.')) {
        const builtin = specifier.startsWith('node:') || builtinModules.includes(specifier);
        if (!builtin) found.push([...chain, specifier].join(' → '));
        continue;
      }
      const target = relative(ROOT, resolve(ROOT, dirname(file), specifier));
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push([target, [...chain, target]]);
    }
  }
  return found;
}

describe('the bootstrap before node_modules exists', () => {
  it('sees the imports it has to follow', () => {
    expect(staticImports('scripts/bootstrap.mjs')).toContain('./services/deps.mjs');
    expect(staticImports('scripts/services/redis.mjs')).toContain('ioredis');
    expect(packagesLoadedBy('scripts/services/ensure-services.mjs')).toEqual(
      expect.arrayContaining([expect.stringMatching(/→ pg$/), expect.stringMatching(/→ ioredis$/)]),
    );
  });

  it.each(ENTRIES)('%s loads only the standard library until it installs the dependencies', (entry) => {
    expect(packagesLoadedBy(entry)).toEqual([]);
  });
});
