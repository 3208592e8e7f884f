import { z } from 'zod';

// Filled in by the /probe work (issue 6).
export const probeSchema = z.object({}).strict().optional();
