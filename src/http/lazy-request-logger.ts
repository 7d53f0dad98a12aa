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

  fatal: LogFn = (...args: Parameters<LogFn>) => this.logger.fatal(...args);
  error: LogFn = (...args: Parameters<LogFn>) => this.logger.error(...args);
  warn: LogFn = (...args: Parameters<LogFn>) => this.logger.warn(...args);
  info: LogFn = (...args: Parameters<LogFn>) => this.logger.info(...args);
  debug: LogFn = (...args: Parameters<LogFn>) => this.logger.debug(...args);
  trace: LogFn = (...args: Parameters<LogFn>) => this.logger.trace(...args);
  silent: LogFn = (...args: Parameters<LogFn>) => this.logger.silent(...args);
}
