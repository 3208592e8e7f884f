import { z } from 'zod';
import { compileTargetPattern } from '../server/probe-target-pattern.js';

/**
 * One entry of `probe.allowed_targets`: a glob such as `http://10.0.*.*:9650`, or `re:` followed by
 * a regular expression. The syntax is described in docs/scaling.md and probe-target-pattern.ts.
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
  })
  .strict()
  .optional();
