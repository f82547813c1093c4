import type { IncomingMessage } from 'node:http';

/**
 * The body of `request` as bytes, or `too-large` as soon as it is known to exceed `limit`: at once, before a
 * byte is read, when the declared `Content-Length` is larger; otherwise the moment the bytes that arrived
 * (a chunked body) pass the limit, without waiting for the rest. What follows an oversized body is drained
 * in the background (never buffered), so the caller can answer 413 at once; answer with `Connection: close`
 * to stop the upload instead of reading it off. Content encodings (gzip) are not decoded.
 */
export function readBoundedBytes(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      request.resume();
      return resolve('too-large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      stop();
      chunks.length = 0;
      // Keep the stream flowing with nobody listening: the rest is read off and dropped.
      request.on('error', () => undefined);
      request.resume();
      resolve('too-large');
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

/**
 * The body of `request` as UTF-8 text, or `too-large` (see `readBoundedBytes`: refused before reading a
 * declared oversized body, and as soon as a chunked one passes the limit). It does not decode content
 * encodings (gzip) nor check the content type.
 */
export async function readBoundedBody(
  request: IncomingMessage,
  limit: number,
): Promise<string | 'too-large'> {
  const body = await readBoundedBytes(request, limit);
  return body === 'too-large' ? body : body.toString('utf8');
}
