import { z } from 'zod';
import { compileTargetPattern } from '../probe/target-pattern.js';

/**
 * One entry of `probe.allowed_targets`: a glob such as `http://10.0.*.*:9650`, or `re:` followed by
 * a regular expression. The syntax is described in docs/scaling.md and probe/target-pattern.ts.
 */
const targetPattern = z.string().superRefine((pattern, ctx) => {
  const problem = compileTargetPattern(pattern).error;
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * `GET /probe?target=URL` reaches only URLs matching one of these patterns; the default list is
 * empty, so /probe serves configured target names only and never lets a scraper pick a host.
 */
export const probeSchema = z
  .object({
    allowed_targets: z.array(targetPattern).default([]),
    /** Distinct probe runs at once; beyond, /probe answers 429 (each run is about 30 upstream requests). */
    max_concurrent: z.number().int().min(1).max(1_000).default(16),
  })
  .strict()
  .optional();
