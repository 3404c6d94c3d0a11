import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Express's `trust proxy` from `TRUST_PROXY`: empty = trust no proxy, a number = that many hops, otherwise the list of
 * trusted proxy addresses/CIDRs. Never `true` (every hop), which would let any client forge its IP.
 */
export function trustProxySetting(value: string): false | number | string[] {
  const v = value.trim();
  if (!v) return false;
  if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v);
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 413: 'Payload Too Large', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' };

/**
 * Requests Node's HTTP parser refuses before Express sees them (headers or URL over the size limit, malformed
 * request lines) are answered with the error envelope instead of Node's empty-bodied default.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Duplex) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
    const message = status === 431 ? 'the request headers are too large' : status === 414 ? 'the request URL is too long' : 'malformed HTTP request';
    const body = JSON.stringify({ errors: message, code: status === 400 ? 'bad_request' : status === 414 ? 'uri_too_long' : 'headers_too_large' });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
