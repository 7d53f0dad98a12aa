import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The text of a documentation file, by its path from the repository root (`docs/guides/cli.md`). */
export function docText(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/**
 * The lines of one section of a Markdown file: from its heading (any level, matched whole) to the next
 * heading of the same or a higher level. Lines inside code fences are never read as headings, so a `#`
 * comment in a shell block cannot end a section.
 */
export function docSection(file: string, section: string): string {
  const lines = docText(file).split('\n');
  let fenced = false;
  let level = 0;
  const body: string[] = [];
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,6}) (.+?)\s*$/.exec(line);
    if (level === 0) {
      if (heading && heading[2] === section) level = heading[1]!.length;
      continue;
    }
    if (heading && heading[1]!.length <= level) break;
    body.push(line);
  }
  if (level === 0) throw new Error(`${file} has no section "${section}"`);
  return body.join('\n');
}

/** The fenced code blocks of language `lang` in one section of a Markdown file, in order. */
export function docBlocks(file: string, section: string, lang: string): string[] {
  const body = docSection(file, section);
  return [...body.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}

/**
 * Writes a TypeScript example of the documentation as a module of this checkout (its `./client/`,
 * `./sdk/` imports pointed at the sources) with `replacements` applied, and returns its path for `import()`.
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
    if (!source.includes(from)) throw new Error(`the documented example no longer contains ${from}`);
    source = source.replaceAll(from, to);
  }
  const dir = join(ROOT, '.local', 'doc-examples');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}-${process.pid}-${Date.now()}.ts`);
  await writeFile(path, `${source}\nexport {};\n`);
  return path;
}

/** Splits one shell line of a documented example into arguments (double quotes; `#` comments). */
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
