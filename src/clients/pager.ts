import { RestApiError } from './rest-api.js';

export interface Page<T> {
  readonly items: readonly T[];
  /** Absent on the last page. */
  readonly nextPageToken?: string;
}

export interface ListOptions<T> {
  readonly maxPages: number;
  /** Stops early once the items so far answer the question (e.g. a complete data point was seen). */
  readonly enough?: (items: readonly T[]) => boolean;
  /** Called when an expired page token forces the listing to start over. */
  readonly onRestart?: (error: RestApiError) => void;
}

export interface Listing<T> {
  readonly items: T[];
  /** True when pages remained after `maxPages` were read. */
  readonly truncated: boolean;
}

/**
 * Follows `nextPageToken` page by page. Page tokens expire (the Metrics API's after 24 hours), and
 * a listing that meets an expired token starts over from the first page, once; items of the
 * abandoned pass are dropped so nothing is counted twice.
 */
export async function listPages<T>(fetchPage: (pageToken?: string) => Promise<Page<T>>, options: ListOptions<T>): Promise<Listing<T>> {
  let restarted = false;
  for (;;) {
    try {
      return await readPages(fetchPage, options);
    } catch (error) {
      if (restarted || !isExpiredPageToken(error)) throw error;
      restarted = true;
      options.onRestart?.(error);
    }
  }
}

async function readPages<T>(fetchPage: (pageToken?: string) => Promise<Page<T>>, options: ListOptions<T>): Promise<Listing<T>> {
  const items: T[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < options.maxPages; pages++) {
    const page = await fetchPage(token);
    items.push(...page.items);
    token = page.nextPageToken || undefined;
    if (token === undefined || options.enough?.(items)) return { items, truncated: false };
  }
  return { items, truncated: true };
}

/**
 * The APIs do not document the status of an expired token; they answer a bad parameter with 400,
 * so a 400 (or 410) whose message is about the page token counts as expired.
 */
function isExpiredPageToken(error: unknown): error is RestApiError {
  if (!(error instanceof RestApiError)) return false;
  if (error.status !== 400 && error.status !== 410) return false;
  return /page ?token|start ?key/i.test(error.apiMessage);
}
