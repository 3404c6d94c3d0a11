import { randomUUID } from 'node:crypto';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Text gathered in memory before it is appended to the file. */
const FLUSH_BYTES = 256 * 1024;

/** Why a send ended early. */
export class ExportStalled extends Error {}

/**
 * A catalogue export's bytes, spooled to a temporary file while the snapshot is read, then sent from the file once the
 * database connection is back in the pool: a client that reads slowly (or not at all) holds a file handle, never a
 * connection or a transaction. The file is unlinked as soon as it is opened, so its bytes go when the handle closes,
 * whatever ends the process. Memory holds at most `FLUSH_BYTES` of text plus the stream's buffers.
 */
export class ExportSpool {
  private pending: string[] = [];
  private pendingLength = 0;

  private constructor(private readonly file: FileHandle) {}

  static async open(dir = tmpdir()): Promise<ExportSpool> {
    const path = join(dir, `vinoshop-export-${randomUUID()}`);
    const file = await open(path, 'wx+', 0o600);
    try {
      await unlink(path);
    } catch (err) {
      await file.close();
      throw err;
    }
    return new ExportSpool(file);
  }

  async write(text: string): Promise<void> {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.pendingLength >= FLUSH_BYTES) await this.flush();
  }

  /**
   * Sends the whole file to `out` with backpressure. When no byte moves towards the client for `stallMs` (its socket
   * buffer stays full), `out` is destroyed and this rejects with ExportStalled.
   */
  async send(out: Writable, stallMs: number): Promise<void> {
    await this.flush();
    const source = this.file.createReadStream({ start: 0, autoClose: false, highWaterMark: 64 * 1024 });
    let stalled = false;
    const timer = setTimeout(() => {
      stalled = true;
      out.destroy();
      source.destroy();
    }, stallMs);
    source.on('data', () => timer.refresh());
    // the last chunks wait in the socket's buffer after the file is read: they count as progress when they leave
    out.on('drain', () => timer.refresh());
    try {
      await pipeline(source, out);
    } catch (err) {
      throw stalled ? new ExportStalled(`no progress for ${stallMs} ms`) : err;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.file.close();
  }

  private async flush(): Promise<void> {
    if (this.pendingLength === 0) return;
    const bytes = Buffer.from(this.pending.join(''), 'utf8');
    this.pending = [];
    this.pendingLength = 0;
    await this.file.write(bytes);
  }
}
