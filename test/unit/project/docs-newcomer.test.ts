import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;
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

  it('calls a release id a release id in the console, as the CLI and the guides do', () => {
    const card = readFileSync(join(ROOT, 'console/src/pages/release-card.tsx'), 'utf8');
    expect(card).not.toContain('>Module id<');
    expect(card).toContain('>Release id<');
  });

  it('has the simulated device ask for its channel without claiming a pinned device is checked there', () => {
    const script = readFileSync(join(ROOT, 'scripts/simulate-device.mjs'), 'utf8');
    expect(script).not.toMatch(/checking \$\{channel\}…/);
    expect(script).toContain('unless the device is pinned');
  });

  it("lists every client's guide in the README's Ship updates table", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('**Ship updates**'), readme.indexOf('**Look something up**'));
    for (const guide of ['expo.md', 'react-native-codepush.md', 'capacitor.md', 'client-and-sdk.md'])
      expect(table).toContain(`(docs/guides/${guide})`);
  });
});
