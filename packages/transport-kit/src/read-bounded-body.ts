import type { IncomingMessage } from 'node:http';

/**
 * The body of `request` as UTF-8 text, or `too-large` when a declared `Content-Length` or the bytes that
 * arrived exceed `limit`; the rest of an oversized body is drained (not buffered), so the caller can still
 * answer 413 on the same connection. It does not decode content encodings (gzip) nor check the content type.
 */
export function readBoundedBody(request: IncomingMessage, limit: number): Promise<string | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      request.resume();
      return resolve('too-large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
