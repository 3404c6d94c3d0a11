import type { Request, Response } from 'express';

/** Bytes of a request body still arriving that are read and discarded after an early answer, at most. */
export const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
/** How long they are read at most. */
export const DRAIN_MAX_MS = 15_000;

/** Whether the request has a body that has not been read to its end (an answer before or while reading it). */
export function bodyStillArriving(req: Request): boolean {
  return !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0);
}

/**
 * Sends a JSON answer to a request whose body is still arriving (413 by Content-Length or past the limit, 401 on an
 * upload), with `Connection: close`. Closing at once would reset the connection with bytes still in flight: a client
 * still sending gets EPIPE and never reads the answer. So the answer is written at once, the rest of the body is read
 * and discarded, at most DRAIN_MAX_BYTES for at most DRAIN_MAX_MS, and only then is the answer ended (Node then
 * closes the connection); past either bound the connection is cut.
 */
export function sendWhileDraining(req: Request, res: Response, status: number, payload: unknown): void {
  const text = JSON.stringify(payload);
  res.status(status);
  res.setHeader('Connection', 'close');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  if (req.readableEnded) {
    res.end(text);
    return;
  }
  res.write(text);
  let seen = 0;
  const finish = () => {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    if (!res.writableEnded) res.end();
  };
  const cut = () => {
    finish();
    req.socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_MAX_BYTES) cut();
  };
  const timer = setTimeout(cut, DRAIN_MAX_MS);
  timer.unref();
  req.on('data', onData);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}
