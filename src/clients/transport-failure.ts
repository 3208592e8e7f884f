import { errors as undiciErrors } from 'undici';
import { UpstreamError, type Outcome } from '../errors.js';

/**
 * A request that failed on the way (refused, reset, timed out, aborted, a TLS mismatch) as an
 * UpstreamError naming the upstream, whose outcome says what kind of failure it was. `aborted`:
 * the reason the request was aborted for (its timeout or its caller's signal), if it was.
 */
export function transportFailure(error: unknown, upstream: string, operation: string, aborted?: unknown): UpstreamError {
  const outcome = classify(error, aborted);
  return new UpstreamError(upstream, operation, outcome, describe(error, outcome, aborted), { cause: error });
}

function isTimeout(reason: unknown): boolean {
  return (reason as Error | undefined)?.name === 'TimeoutError';
}

function classify(error: unknown, aborted: unknown): Outcome {
  const code = (error as { code?: string }).code;
  if (aborted !== undefined && isTimeout(aborted)) return 'timeout';
  if (error instanceof undiciErrors.ConnectTimeoutError) return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || error instanceof undiciErrors.SocketError) return 'reset';
  return 'network_error';
}

/** OpenSSL's words for a TLS handshake answered with plain HTTP, and what they mean to an operator. */
const PLAIN_HTTP_ANSWER = /wrong version number|packet length too long/i;

function describe(error: unknown, outcome: Outcome, aborted: unknown): string {
  // Not aborted: undici's connect timeout, whose message names the address and the timeout.
  if (outcome === 'timeout') return aborted !== undefined ? (aborted as Error).message : String((error as Error).message);
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || PLAIN_HTTP_ANSWER.test(String((error as Error).message))) {
    return 'TLS handshake failed: the server answered plain HTTP to an https:// URL (AvalancheGo serves plain HTTP unless --http-tls-enabled); use http://';
  }
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  const message = (error as Error).message ?? String(error);
  return cause && !message.includes(cause) ? `${message} (${cause})` : message;
}
