/**
 * What the CLI changed on the terminal, and how to put it back. A progress bar (cli-progress) hides the
 * cursor and turns line wrap off while it draws; a Ctrl-C in the middle kills the process before the bar's
 * own stop() runs, which used to leave the shell with no cursor and no wrapping.
 */
const SHOW_CURSOR = '\x1b[?25h';
const WRAP_ON = '\x1b[?7h';

let touched = false;

/** A bar is about to draw on stderr: the terminal needs putting back should the run be interrupted. */
export function terminalTouched(): void {
  touched = true;
}

/** Shows the cursor and turns line wrap back on, if a bar changed them. */
export function restoreTerminal(stream: NodeJS.WriteStream = process.stderr): void {
  if (!touched) return;
  touched = false;
  stream.write(SHOW_CURSOR + WRAP_ON);
}

/** Exit status of a run ended by Ctrl-C (SIGINT), as shells report it: 128 + 2. */
export const EXIT_INTERRUPTED = 130;

/**
 * Ctrl-C: the terminal put back, a line that says what happened, and exit 130. An interrupted upload made
 * no release (the release is pushed only after the bytes are in); bytes already sent are kept as
 * unreferenced and cleaned up by the service.
 */
export function exitOnInterrupt(): void {
  process.once('SIGINT', () => {
    restoreTerminal();
    process.stderr.write('\nInterrupted (Ctrl-C); nothing more was done.\n');
    process.exit(EXIT_INTERRUPTED);
  });
}
