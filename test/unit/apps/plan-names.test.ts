import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_LABELS, PLANS } from '../../../shared/contracts.js';
import { docBlocks } from '../../helpers/doc-blocks.js';

const ROOT = new URL('../../../', import.meta.url).pathname;

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(join(ROOT, path)).isDirectory()) return files(path, ext);
    return ext.test(name) ? [path] : [];
  });
}

/**
 * One plan, one name: Hobby, Startup and Enterprise (shared/contracts.ts), next to the value a command
 * takes (`hobby`, `pro`, `team`); never the value capitalised as if it were a name ("Team", "Pro").
 */
describe('plan names', () => {
  const texts = [
    'README.md',
    ...files('docs', /\.md$/),
    ...files('console/src', /\.tsx?$/),
    ...files('cli', /\.ts$/),
    ...files('src', /\.ts$/),
  ];
  const VALUE_AS_NAME = [
    /\*\*(Team|Pro)\*\*/,
    /\b(the|a|on) (Team|Pro) (plan|workspace)/,
    /\b(Team|Pro) \(`?(team|pro)`?\)/,
    /\b(Startup|Enterprise) \(`?(hobby|startup|enterprise)`?\)/,
  ];

  it('are the labels of the three plans', () => {
    expect(PLANS.map((p) => PLAN_LABELS[p])).toEqual(['Hobby', 'Startup', 'Enterprise']);
  });

  it('never call a plan by its value capitalised, anywhere a person reads', () => {
    const found = texts.flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          VALUE_AS_NAME.some((re) => re.test(line))
            ? [`${relative(ROOT, join(ROOT, file))}:${i + 1}: ${line}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('are what the README walkthrough calls the plan it sets', () => {
    const section = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const [, cli] = docBlocks('README.md', 'Five minutes, end to end', 'sh');
    expect(cli).toContain('npx ota plan set team');
    expect(section).toContain(`**${PLAN_LABELS.team}** (\`team\``);
  });
});
