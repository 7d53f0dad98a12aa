import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES } from '../../../src/config/config.js';
import { docText } from '../../helpers/doc-blocks.js';

const PAGE = 'docs/reference/configuration.md';

/** Variables read outside loadConfig that the page lists among the service's settings. */
const OUTSIDE_CONFIG = ['WORKERS', 'NODE_EXTRA_CA_CERTS'];

/** The variable names in the first column of the tables of some Markdown text. */
function rows(text: string): string[] {
  return [...text.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!);
}

describe('docs/reference/configuration.md', () => {
  // The service's settings: every section before the CLI's and the tools' own variables.
  const service = docText(PAGE).split('\n## The CLI\n')[0]!;

  it('lists every environment variable the service reads', () => {
    const listed = rows(service);
    expect(ENV_VARIABLES.filter((name) => !listed.includes(name))).toEqual([]);
  });

  it('lists no setting the service does not read, and each one once', () => {
    const listed = rows(service);
    expect(listed.filter((name) => !ENV_VARIABLES.includes(name) && !OUTSIDE_CONFIG.includes(name))).toEqual(
      [],
    );
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
  });
});
