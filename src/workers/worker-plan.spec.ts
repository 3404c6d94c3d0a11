import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../config/app-config.js';
import { indexShareMb, restartDelayMs, WORKER_SLOT_ENV, workerCount, workerEnv } from './worker-plan.js';

describe('WORKERS', () => {
  it('defaults to 1; auto is the number of cores', () => {
    expect(loadConfig({}).WORKERS).toBe(1);
    expect(workerCount(loadConfig({ WORKERS: 'auto' }).WORKERS, 2)).toBe(2);
    expect(workerCount(loadConfig({ WORKERS: 'AUTO' }).WORKERS, 8)).toBe(8);
    expect(workerCount(loadConfig({ WORKERS: '3' }).WORKERS, 2)).toBe(3);
  });

  it('refuses anything else with one line naming the variable', () => {
    for (const bad of ['0', '-1', '1.5', 'two', '65'])
      expect(() => loadConfig({ WORKERS: bad })).toThrow(
        new ConfigError(
          `Invalid configuration: WORKERS=${JSON.stringify(bad === 'two' ? NaN : Number(bad))}: WORKERS must be an integer from 1 to 64, or auto (the number of cores)`,
        ),
      );
  });
});

describe('a worker environment', () => {
  it('gives each worker the migrated database, an equal share of the index budget and a metrics port of its own', () => {
    const config = { CATALOGUE_INDEX_MEMORY_MB: 512, METRICS_PORT: 9100 };
    expect(workerEnv(config, 2, 1, 'postgres://db')).toEqual({
      DATABASE_URL: 'postgres://db',
      CATALOGUE_INDEX_MEMORY_MB: '256',
      [WORKER_SLOT_ENV]: '1',
      METRICS_PORT: '9100',
    });
    expect(workerEnv(config, 2, 2, 'postgres://db').METRICS_PORT).toBe('9101');
    expect(workerEnv({ ...config, METRICS_PORT: 0 }, 2, 2, 'postgres://db').METRICS_PORT).toBeUndefined();
  });

  it('divides the index budget rounding down, never below 1 MB', () => {
    expect(indexShareMb(512, 3)).toBe(170);
    expect(indexShareMb(1, 4)).toBe(1);
  });
});

describe('restarting a worker', () => {
  it('at once after a crash of a worker that ran a while; backing off up to 30 s while workers die at start', () => {
    expect(restartDelayMs(60_000, 8_000)).toBe(0);
    expect(restartDelayMs(500, 0)).toBe(1_000);
    expect(restartDelayMs(500, 1_000)).toBe(2_000);
    expect(restartDelayMs(500, 20_000)).toBe(30_000);
  });
});
