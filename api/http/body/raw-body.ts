import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { Request } from 'express';
import { HttpProblem, problems } from '../problem.js';

/**
 * Reads a request body into one Buffer of its (decompressed) size, copying each chunk in as it
 * arrives: no list of chunks concatenated at the end, so a 25 MB body costs 25 MB, not twice that.
 * The limit applies to the decompressed bytes, and decompression stops at the limit (gzip bombs).
 */
export async function readRawBody(
  req: Request,
  limitBytes: number,
  limitName = 'body_bytes',
): Promise<Buffer> {
  const encoding = (req.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const tooLarge = () =>
    new HttpProblem(
      413,
      'payload_too_large',
      `The body exceeds the limit ${limitName} of ${Math.round(limitBytes / 1024 / 1024)} MB (after decompression).`,
      undefined,
      {},
      undefined,
      { name: limitName, value: limitBytes },
    );
  let stream: Readable;
  if (encoding === 'identity') stream = req;
  else if (encoding === 'gzip' || encoding === 'x-gzip') stream = req.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = req.pipe(zlib.createInflate());
  else if (encoding === 'br') stream = req.pipe(zlib.createBrotliDecompress());
  else throw problems.unsupportedMediaType('Content-Encoding must be gzip, deflate, br or identity.');

  const declared = encoding === 'identity' ? Number(req.get('content-length')) : Number.NaN;
  if (declared > limitBytes) throw tooLarge();
  let buf = Buffer.allocUnsafe(Number.isFinite(declared) ? declared : Math.min(limitBytes, 1 << 20));
  let length = 0;
  return new Promise<Buffer>((resolve, reject) => {
    const stop = (err?: Error) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      if (err === undefined) return resolve(buf.subarray(0, length));
      // Stop inflating, then read off (and drop) the rest of the request before answering, as
      // body-parser does: a client still sending would not read an answer sent meanwhile.
      if (stream !== req) {
        req.unpipe(stream as unknown as NodeJS.WritableStream);
        stream.on('error', () => undefined);
        stream.destroy();
      }
      if (req.complete) return reject(err);
      const fail = () => reject(err);
      req.once('end', fail);
      req.once('close', fail);
      req.resume();
    };
    const onData = (chunk: Buffer) => {
      if (length + chunk.length > limitBytes) return stop(tooLarge());
      if (length + chunk.length > buf.length) {
        const grown = Buffer.allocUnsafe(
          Math.min(limitBytes, Math.max(buf.length * 2, length + chunk.length)),
        );
        buf.copy(grown, 0, 0, length);
        buf = grown;
      }
      chunk.copy(buf, length);
      length += chunk.length;
    };
    const onEnd = () => stop();
    // Any error of the decompressor is the client's corrupt body: zlib says Z_DATA_ERROR, brotli
    // names its own codes (ERR__ERROR_FORMAT_PADDING_2, …).
    const onError = (err: Error) =>
      stop(stream !== req ? problems.malformedJson('The compressed body is corrupt.') : err);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
