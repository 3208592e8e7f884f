// The daemon applies its own process settings (src/runtime/process-settings.ts). PROCESS_SETTINGS=off runs it
// without them, for a comparison in the same benchmark.
const off = process.env.PROCESS_SETTINGS === 'off';
export const daemonEnv = off ? { ...process.env, AVAXMON_PROCESS_SETTINGS: 'off' } : process.env;
