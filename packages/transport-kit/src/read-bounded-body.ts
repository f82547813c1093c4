import type { IncomingMessage } from 'node:http';

/** The body of `request` as text, or `too-large` once more than `limit` bytes arrived (the rest is drained). */
export function readBody(request: IncomingMessage, limit: number): Promise<string | 'too-large'> {
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
