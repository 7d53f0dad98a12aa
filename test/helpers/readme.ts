import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The fenced code blocks of one `## ` section of the README, in order. */
export function readmeBlocks(section: string, lang: string): string[] {
  const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = text.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`README has no section "## ${section}"`);
  const end = text.indexOf('\n## ', start + 4);
  const body = text.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/**
 * Writes a README TypeScript example as a module of this checkout (its `./client/`, `./sdk/` imports
 * pointed at the sources) with `replacements` applied, and returns its path for `import()`.
 */
export async function exampleModule(
  code: string,
  name: string,
  replacements: Array<[string, string]>,
): Promise<string> {
  let source = code
    .replaceAll("from './client/", `from '${ROOT}client/`)
    .replaceAll("from './sdk/", `from '${ROOT}sdk/`);
  for (const [from, to] of replacements) {
    if (!source.includes(from)) throw new Error(`the README example no longer contains ${from}`);
    source = source.replaceAll(from, to);
  }
  const dir = join(ROOT, '.local', 'readme-examples');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}-${process.pid}-${Date.now()}.ts`);
  await writeFile(path, `${source}\nexport {};\n`);
  return path;
}

/** Splits one shell line of the README's CLI example into arguments (double quotes; `#` comments). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = '';
  let quoted = false;
  let inWord = false;
  for (const ch of line) {
    if (ch === '"') {
      quoted = !quoted;
      inWord = true;
    } else if (!quoted && ch === '#') break;
    else if (!quoted && /\s/.test(ch)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}
