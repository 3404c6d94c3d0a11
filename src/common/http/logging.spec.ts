import { describe, expect, it } from '@jest/globals';
import { createRootLogger, PinoNestLogger } from './logging.js';

describe('PinoNestLogger', () => {
  it('writes an Error’s message (Nest logs start errors as the Error object, whose message is not enumerable)', () => {
    const lines: string[] = [];
    const logger = new PinoNestLogger(createRootLogger('info', { write: (line: string) => lines.push(line) }));
    logger.error(new Error('invalid range on address: 0.0.0.0/0'));
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as { msg?: string; trace?: string };
    expect(entry.msg).toBe('invalid range on address: 0.0.0.0/0');
    expect(entry.trace).toContain('logging.spec');
  });
});
