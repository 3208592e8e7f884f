import { z } from 'zod';

// Filled in by the alerting work (issue 4); until then the section is accepted but unused.
export const alertsSchema = z.object({}).strict().optional();
