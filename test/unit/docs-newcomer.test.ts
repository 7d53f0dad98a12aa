import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const docs = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? docs(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
  );

/** What a newcomer reading README.md and docs/ alone must be able to follow. */
describe('the documentation a newcomer reads', () => {
  it('cites no file the repository does not have (API.md)', () => {
    expect(existsSync(join(ROOT, 'API.md'))).toBe(false);
    const citing = ['README.md', ...docs('docs')].filter((f) =>
      /\bAPI\.md\b/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(citing).toEqual([]);
  });

  it("lists every client's guide in the README's Ship updates table", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('**Ship updates**'), readme.indexOf('**Look something up**'));
    for (const guide of ['expo.md', 'react-native-codepush.md', 'capacitor.md', 'client-and-sdk.md'])
      expect(table).toContain(`(docs/guides/${guide})`);
  });
});
