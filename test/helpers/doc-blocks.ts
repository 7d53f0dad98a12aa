import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The fenced `lang` code blocks of one `## ` section of a Markdown file of this checkout, in order. */
export function docBlocks(file: string, section: string, lang: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n## ${section}\n`);
  if (start < 0) throw new Error(`${file} has no section "## ${section}"`);
  const end = text.indexOf('\n## ', start + 4);
  const body = text.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
}
