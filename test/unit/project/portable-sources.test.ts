import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.name === 'dist'
      ? [] // the package's own build output
      : entry.isDirectory()
        ? sources(join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [join(dir, entry.name)]
          : [],
  );
}

/**
 * The SDK runs in React Native and the client in browsers: no Node-only module or global may creep in.
 * shared/ (the id and name rules every part uses) travels with them, so it is held to the same rule.
 */
describe('client/, sdk/ and shared/ stay portable', () => {
  const files = [...sources('client'), ...sources('sdk'), ...sources('shared')];

  it('has files to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it.each(files)(
    '%s imports only its own files and the other two packages, and uses no Node globals',
    (file) => {
      const text = readFileSync(join(root, file), 'utf8');
      const imports = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
      for (const spec of imports) {
        const portable = ['./', '@ota/client/', '@ota/shared/'].some((prefix) => spec.startsWith(prefix));
        expect(portable, `${file} imports ${spec}`).toBe(true);
      }
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect(code).not.toMatch(/\b(Buffer|process|require|__dirname)\b/);
      expect(code).not.toMatch(/NodeJS\./);
    },
  );
});
