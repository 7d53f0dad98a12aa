import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * Fastify's request logging for a fleet's traffic: requests are not logged one by one (the devices'
 * checks would drown the log); an answer of 500 or more is, and the requests refused while the server
 * shut down are counted (a balancer that does not retry a 503 passes them on to clients). A device
 * endpoint's answer is also counted here, its status and time, for /metrics (the route named where, see
 * device-route.ts). Done here, where Fastify reports every answer anyway, rather than in a hook every
 * route would have to run.
 */
export class ServiceLogController extends LogController {
  /** Requests answered 503 because they arrived after the close began. */
  refusedWhileClosing = 0;

  constructor() {
    super({ disableRequestLogging: true });
  }

  override requestCompleted(_error: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const tally = request.answerTally;
    if (tally !== null) tally.answered(reply.statusCode, reply.elapsedTime);
    if (reply.statusCode >= 500)
      request.log.warn({ url: request.url, status: reply.statusCode }, 'server error');
  }

  override serviceUnavailable(): void {
    this.refusedWhileClosing += 1;
  }
}
