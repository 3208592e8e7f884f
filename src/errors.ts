/** Stable error codes, so logs and tests can match on a code instead of message text. */
export type ErrorCode =
  | 'AVAXMON_ERR_CONFIG'
  | 'AVAXMON_ERR_UPSTREAM'
  | 'AVAXMON_ERR_RPC'
  | 'AVAXMON_ERR_METHOD_UNAVAILABLE'
  | 'AVAXMON_ERR_TIMEOUT'
  | 'AVAXMON_ERR_BAD_RESPONSE';

export class AvaxmonError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AvaxmonError';
  }
}

/** One bad config path, e.g. `targets[0].url: must be an http(s) URL`. */
export interface ConfigIssue {
  path: string;
  message: string;
}

export class ConfigError extends AvaxmonError {
  constructor(readonly issues: readonly ConfigIssue[]) {
    super('AVAXMON_ERR_CONFIG', issues.map(formatConfigIssue).join('\n'));
    this.name = 'ConfigError';
  }
}

export function formatConfigIssue(issue: ConfigIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
}

/**
 * How an upstream request ended. Used as the `outcome` label of avaxmon_rpc_requests_total, so the
 * set is closed and small.
 */
export type Outcome =
  | 'success'
  | 'refused'
  | 'timeout'
  | 'reset'
  | 'http_4xx'
  | 'http_5xx'
  | 'bad_body'
  | 'rpc_error'
  | 'unavailable'
  | 'network_error';

/** A failed request to a node or public API: names the upstream, the method and the cause. */
export class UpstreamError extends AvaxmonError {
  constructor(
    readonly upstream: string,
    readonly method: string,
    readonly outcome: Outcome,
    detail: string,
    options?: { cause?: unknown; status?: number; retryAfterMs?: number; rpcCode?: number },
  ) {
    super(outcomeCode(outcome), `${upstream} ${method}: ${detail}`, options);
    this.name = 'UpstreamError';
    this.status = options?.status;
    this.retryAfterMs = options?.retryAfterMs;
    this.rpcCode = options?.rpcCode;
  }
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly rpcCode?: number;
}

function outcomeCode(outcome: Outcome): ErrorCode {
  if (outcome === 'timeout') return 'AVAXMON_ERR_TIMEOUT';
  if (outcome === 'rpc_error') return 'AVAXMON_ERR_RPC';
  if (outcome === 'unavailable') return 'AVAXMON_ERR_METHOD_UNAVAILABLE';
  if (outcome === 'bad_body') return 'AVAXMON_ERR_BAD_RESPONSE';
  return 'AVAXMON_ERR_UPSTREAM';
}
