export { runPrimary } from './primary.js';
export { indexShareMb, restartDelayMs, WORKER_SLOT_ENV, workerCount, workerEnv } from './worker-plan.js';
