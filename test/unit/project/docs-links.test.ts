import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../../', import.meta.url).pathname;

/** README.md and every Markdown page under docs/, as paths from the repository root. */
function pages(): string[] {
  const found = ['README.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** The lines of a page outside fenced code blocks. */
function prose(file: string): string[] {
  let fenced = false;
  return readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .filter((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return false;
      }
      return !fenced;
    });
}

/** The anchors GitHub makes for a page's headings (lower case, punctuation dropped, spaces as hyphens). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(file)) {
    const heading = /^#{1,6} (.+?)\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Every link of a page that points into this repository: [text](target), outside code. */
function localLinks(file: string): string[] {
  const links: string[] = [];
  for (const line of prose(file)) {
    const text = line.replace(/`[^`]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

describe('the documentation', () => {
  const all = pages();

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const file of all) {
      for (const link of localLinks(file)) {
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), path));
        if (!existsSync(join(ROOT, target))) {
          broken.push(`${file}: ${link} (no ${target})`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor))
          broken.push(`${file}: ${link} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('lists every page under docs/ in its index, docs/README.md', () => {
    const index = new Set(localLinks('docs/README.md').map((l) => join('docs', l.split('#')[0]!)));
    const missing = all.filter((f) => f.startsWith('docs/') && f !== 'docs/README.md' && !index.has(f));
    expect(missing).toEqual([]);
  });

  it('keeps the README a front door: at most 250 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(
      250,
    );
  });

  it('reads headings as GitHub does', () => {
    expect([...anchors('docs/guides/expo.md')]).toContain('code-signing-once');
    expect([...anchors('docs/README.md')]).toContain('guides-ship-updates');
  });
});
