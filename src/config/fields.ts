import { z } from 'zod';
import { parseDuration } from '../duration.js';

/** A Go-style duration string ("15s", "1m30s") parsed to milliseconds. */
export const durationMs = z.string().transform((text, ctx) => {
  const ms = parseDuration(text);
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `must be a duration like 500ms, 15s, 1m or 1h (got "${text}")` });
    return z.NEVER;
  }
  return ms;
});

export const httpUrl = z
  .string()
  .refine((text) => /^https?:\/\/[^\s/]+/.test(text) && URL.canParse(text), 'must be an http(s) URL');

/** Label values become Prometheus label values and log fields: keep them short and printable. */
export const labelName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/, 'must be 1-63 characters of letters, digits, _ . : -');

export const nodeId = z.string().regex(/^NodeID-[1-9A-HJ-NP-Za-km-z]{20,64}$/, 'must be a NodeID-... id');

/** CB58 ids (subnet, blockchain) as AvalancheGo prints them. */
export const cb58Id = z.string().regex(/^[1-9A-HJ-NP-Za-km-z]{40,60}$/, 'must be a CB58 id');
