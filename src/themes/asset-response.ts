import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { compressStream, encodingFor, weakenEtag } from '../common/http/compression.js';
import { isActiveContent, isTextType } from './asset-key.js';
import type { ThemeAsset } from './entities/theme-asset.entity.js';

/**
 * Writes an asset's bytes: stored Content-Type, Content-Length, ETag, `X-Content-Type-Options: nosniff`,
 * `Content-Security-Policy: sandbox` for HTML/SVG/XML; a matching If-None-Match answers 304 without reading the bytes.
 * A text asset over 1 KB is compressed on the way out when the client accepts it (src/common/http/compression.ts):
 * piped through zlib with backpressure, no Content-Length, its ETag made weak; binary assets go out as stored.
 */
export async function sendAsset(req: Request, res: Response, asset: ThemeAsset, open: () => Promise<Readable>): Promise<void> {
  const type =
    asset.kind === 'text' && isTextType(asset.contentType) && !/;\s*charset=/i.test(asset.contentType)
      ? `${asset.contentType}; charset=utf-8`
      : asset.contentType;
  res.setHeader('ETag', asset.etag);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (isActiveContent(asset.contentType)) res.setHeader('Content-Security-Policy', 'sandbox');
  if (etagMatches(req.headers['if-none-match'], asset.etag)) {
    res.status(304).end();
    return;
  }
  const stream = await open();
  res.status(200);
  res.setHeader('Content-Type', type);
  const coding = asset.kind === 'text' ? encodingFor(req, res, asset.size) : null;
  if (coding) {
    res.setHeader('Content-Encoding', coding);
    weakenEtag(res);
  } else res.setHeader('Content-Length', String(asset.size));
  if (req.method === 'HEAD') {
    stream.destroy();
    res.end();
    return;
  }
  try {
    if (coding) await pipeline(stream, compressStream(coding, asset.size), res);
    else await pipeline(stream, res);
  } catch {
    // the client went away or the store failed mid-stream: the response is already cut short
    if (!res.destroyed) res.destroy();
  }
}

/** RFC 9110 weak comparison for If-None-Match. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}
