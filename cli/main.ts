#!/usr/bin/env node
import { CommanderError } from 'commander';
import { describeError, EXIT } from './errors.js';
import { notAnOtaServer } from './foreign-server.js';
import { asksVersion, buildProgram, CLI_VERSION } from './program.js';
import { exitOnInterrupt, restoreTerminal } from './terminal.js';

async function main(argv: string[]): Promise<number> {
  if (asksVersion(argv.slice(2))) {
    process.stdout.write(`${CLI_VERSION}\n`);
    return EXIT.ok;
  }
  exitOnInterrupt();
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    // Commander already printed usage errors and help; map its exit codes onto ours.
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    restoreTerminal();
    const report = describeError((await notAnOtaServer(err)) ?? err);
    const json = argv.includes('--json');
    process.stderr.write(json ? `${JSON.stringify(report.json)}\n` : `${report.text}\n`);
    return report.exitCode;
  }
}

process.exitCode = await main(process.argv);
