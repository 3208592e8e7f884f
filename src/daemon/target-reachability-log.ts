import type { Logger } from 'pino';

/** Called when a target turns unreachable (with the transport error that said so) or answers again. */
export type ReachabilityListener = (target: string, up: boolean, error?: unknown) => void;

/**
 * One line when a target stops answering at all and one when it answers again. While it is down its
 * collectors keep their own failures to debug (SliceLog.quiet), so a dead node is one warning, not
 * one per collector, chain and side call.
 */
export function logReachability(logger: Logger): ReachabilityListener {
  return (target, up, error) => {
    if (up) logger.info({ target }, 'Target answers again');
    else logger.warn({ target, err: error }, 'Target unreachable; its collectors stay quiet until it answers');
  };
}
