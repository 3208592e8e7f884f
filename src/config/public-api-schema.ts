import { z } from 'zod';

// Filled in by the public API collectors (issue 5).
export const publicApiSchemas = {
  metrics_api: z.object({}).strict().optional(),
  data_api: z.object({}).strict().optional(),
};
