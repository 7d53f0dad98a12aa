import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../cli/program.js';
import { STATUS_COLUMNS, STATUS_COLUMNS_NARROW } from '../../../cli/status-report.js';

/** Every command's help text, the program's own first. */
function helps(command: Command): Array<[string, string]> {
  const name = command.name();
  return [[name, command.helpInformation()], ...command.commands.flatMap((c) => helps(c))];
}

/**
 * The console, the README and the guides speak of releases; the CLI says the same everywhere a user reads
 * it. (`module.push` and `module.rollback` stay: they are the audit actions' names, which are data.)
 */
describe('the CLI says "release", never "module"', () => {
  it('in every help text', () => {
    for (const [name, text] of helps(buildProgram())) {
      const wording = text.replace(/module\.(push|rollback)/g, '');
      expect(wording, `ota ${name} --help`).not.toMatch(/\bmodules?\b/i);
    }
  });

  it('in the status table', () => {
    expect(STATUS_COLUMNS[0]).toBe('release');
    expect([...STATUS_COLUMNS, ...STATUS_COLUMNS_NARROW]).not.toContain('module');
  });
});
