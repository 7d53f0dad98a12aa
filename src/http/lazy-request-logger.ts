import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;
type LogFn = FastifyBaseLogger['info'];

/**
 * The request's logger (`request.log`), made only when something logs. Fastify gives every request a child
 * logger carrying its id; pino serialises the bindings when a child is made, which was about 2 % of an
 * update check's CPU, and the device routes log nothing unless a request fails.
 */
export class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: object,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: object): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }

  // Methods on the prototype, not arrow functions per instance: every request makes one of these loggers,
  // and seven closures per request were garbage for the young generation to sweep.
  fatal(...args: Parameters<LogFn>): void {
    this.logger.fatal(...args);
  }
  error(...args: Parameters<LogFn>): void {
    this.logger.error(...args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.logger.warn(...args);
  }
  info(...args: Parameters<LogFn>): void {
    this.logger.info(...args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.logger.debug(...args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.logger.trace(...args);
  }
  silent(...args: Parameters<LogFn>): void {
    this.logger.silent(...args);
  }
}
