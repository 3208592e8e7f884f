// Writes config.schema.json from the zod config schema (run after `npm run -s build`).
// test/config/json-schema.test.ts fails when the checked-in file is stale.
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../dist/config/json-schema.js';

const file = new URL('../config.schema.json', import.meta.url);
writeFileSync(file, configJsonSchema());
console.log(`wrote ${file.pathname}`);
