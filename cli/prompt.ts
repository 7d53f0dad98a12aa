import { createInterface } from 'node:readline';
import { CliError } from './errors.js';

/** All of standard input, without the trailing newline (for `--password-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function requireTerminal(what: string, flag: string): void {
  if (!process.stdin.isTTY) throw new CliError(`${what} is required: pass ${flag} (no terminal to ask on).`);
}

export async function promptLine(question: string, flag: string): Promise<string> {
  requireTerminal(question.replace(/:\s*$/, ''), flag);
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return (await new Promise<string>((resolve) => rl.question(question, resolve))).trim();
  } finally {
    rl.close();
  }
}

/** A yes-or-no question on the terminal; anything but y or yes is no. */
export async function promptYesNo(question: string): Promise<boolean> {
  const answer = await promptLine(question, '--create');
  return /^(y|yes)$/i.test(answer);
}

/** Asks for a secret without echoing it. */
export async function promptHidden(question: string, flag: string): Promise<string> {
  requireTerminal('The password', flag);
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // readline echoes typed characters through _writeToOutput; print the question only.
  const internal = rl as unknown as { _writeToOutput: (text: string) => void };
  let asked = false;
  internal._writeToOutput = (text: string) => {
    if (!asked) {
      asked = true;
      process.stderr.write(text);
    }
  };
  try {
    return await new Promise<string>((resolve) => rl.question(question, resolve));
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
