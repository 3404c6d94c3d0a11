import type { LoggerService } from '@nestjs/common';

/**
 * A background loop: runs `tick` every `intervalMs`, at once on `kick()`, and again immediately while `tick`
 * reports more work. `stop()` prevents new ticks and waits for the running one, so shutdown never hangs on a timer
 * (the timer is also unref'd) and never cuts a tick in half.
 */
export class PollingWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;
  private kicked = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly tick: () => Promise<boolean>,
    private readonly logger: LoggerService,
  ) {}

  get isRunning(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Work is waiting (an event was committed): tick now, or right after the running tick. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.kicked = true;
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), ms);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.timer = null;
    if (this.stopped || this.running) return;
    this.running = this.loop();
    await this.running;
    this.running = null;
    if (!this.stopped) this.schedule(this.kicked ? 0 : this.intervalMs);
    this.kicked = false;
  }

  private async loop(): Promise<void> {
    try {
      let more = true;
      while (more && !this.stopped) {
        this.kicked = false;
        more = await this.tick();
      }
    } catch (err) {
      if (!this.stopped) this.logger.error(`${this.name}: ${(err as Error).message}`, (err as Error).stack, this.name);
    }
  }
}
