// The error type and the one-line stderr log every bootstrap step uses (stdout carries only env lines).

export class BootstrapError extends Error {
  constructor(message) {
    super(message);
    this.name = 'BootstrapError';
  }
}

export function log(line) {
  process.stderr.write(`[bootstrap] ${line}\n`);
}
