import { AvaxmonError } from '../errors.js';

/**
 * A request given up before it was sent: it waited for a connection to its origin until the
 * caller's signal (a run's deadline, a stop) ended the wait. avaxmon's own lateness: the upstream
 * was never asked, so this says nothing about whether it answers.
 */
export class NotSentError extends AvaxmonError {
  constructor(
    readonly upstream: string,
    readonly method: string,
    reason: unknown,
  ) {
    super(
      'AVAXMON_ERR_TIMEOUT',
      `${upstream} ${method}: not sent, still waiting for a connection when ${describeReason(reason)} (avaxmon's own lateness, not the node's)`,
      { cause: reason },
    );
    this.name = 'NotSentError';
  }
}

function describeReason(reason: unknown): string {
  const message = reason instanceof Error ? reason.message : String(reason);
  return `the run ended (${message})`;
}
