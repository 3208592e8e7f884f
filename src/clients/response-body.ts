import { UpstreamError } from '../errors.js';
import type { HttpResponse } from './http.js';

/**
 * Parses a JSON body, turning what real nodes and gateways send instead (plain-text 503s, HTML error
 * pages, empty or truncated bodies) into an UpstreamError that says which it was.
 */
export function parseJsonBody(response: HttpResponse, upstream: string, operation: string): unknown {
  const text = response.text;
  if (text.trim() === '') {
    throw new UpstreamError(upstream, operation, statusOutcome(response.status, 'bad_body'), `empty body with HTTP ${response.status}`, {
      status: response.status,
    });
  }
  try {
    return JSON.parse(text);
  } catch {
    const outcome = statusOutcome(response.status, 'bad_body');
    const kind = /^\s*</.test(text) ? 'an HTML page' : response.status >= 400 ? 'a plain-text body' : 'a non-JSON or truncated body';
    throw new UpstreamError(upstream, operation, outcome, `HTTP ${response.status} with ${kind}: ${snippet(text)}`, {
      status: response.status,
    });
  }
}

export function statusOutcome(status: number, otherwise: 'bad_body' | 'success'): 'http_5xx' | 'http_4xx' | 'bad_body' | 'success' {
  if (status >= 500) return 'http_5xx';
  if (status >= 400) return 'http_4xx';
  return otherwise;
}

/** ": <snippet>" of a non-empty body, or nothing: a message never ends in an empty "()" or ": ". */
export function bodySuffix(text: string): string {
  const flat = snippet(text);
  return flat === '' ? '' : `: ${flat}`;
}

export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}
