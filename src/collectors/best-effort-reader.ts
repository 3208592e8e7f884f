import { FieldReader } from '../clients/parse.js';
import { UpstreamError } from '../errors.js';

/**
 * A FieldReader for fields whose contract is "any JSON" (health check details): an optional field of
 * an unexpected type is skipped and reported to `onSkip`, never a failed run. Fields that decide
 * something stay on a strict FieldReader.
 */
export class BestEffortReader extends FieldReader {
  constructor(
    upstream: string,
    method: string,
    prefix: string,
    private readonly onSkip: (path: string, problem: string) => void,
  ) {
    super(upstream, method, () => prefix);
  }

  override optional<T>(value: unknown, path: string, read: (value: unknown, path: string) => T): T | undefined {
    try {
      return super.optional(value, path, read);
    } catch (error) {
      if (!(error instanceof UpstreamError) || error.outcome !== 'bad_body') throw error;
      this.onSkip(path, error.message);
      return undefined;
    }
  }
}
