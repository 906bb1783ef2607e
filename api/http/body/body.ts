import { createHash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import { HttpProblem, problems } from '../problem.js';
import { readRawBody } from './raw-body.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** SHA-256 of the decoded body bytes, computed only when an Idempotency-Key is sent. */
    bodyHash?: string;
    /** The body's bytes, for routes that read it themselves (`rawBody`), after decompression. */
    rawBody?: Buffer;
  }
}

function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON body parsing for one route, after authentication (nobody unauthenticated makes us inflate
 * 25 MB). gzip/deflate bodies are inflated by body-parser and the size limit applies to the inflated
 * bytes, which is what stops a gzip bomb.
 */
export function createBodyReader(limitBytes: number, limitName = 'body_bytes') {
  const verify = (req: Request, _res: Response, buf: Buffer) => {
    if (req.get('idempotency-key')) req.bodyHash = createHash('sha256').update(buf).digest('hex');
  };
  const parser = express.json({ limit: limitBytes, inflate: true, strict: false, type: () => true, verify });

  return async function readBody(req: Request, res: Response, raw = false): Promise<void> {
    if (!hasBody(req)) {
      req.body = undefined;
      return;
    }
    if (!req.is(['application/json', 'application/*+json'])) {
      throw problems.unsupportedMediaType(
        `Content-Type must be application/json (got ${req.get('content-type') ?? 'none'}).`,
      );
    }
    if (
      raw &&
      !/^utf-?8$/i.test(req.get('content-type')?.match(/charset=["']?([^;"'\s]+)/i)?.[1] ?? 'utf-8')
    ) {
      throw problems.unsupportedMediaType('The body must be UTF-8 JSON.');
    }
    if (raw) {
      // Scans are read as bytes and parsed page by page (http/scan-pages.ts): never whole.
      req.rawBody = await readRawBody(req, limitBytes, limitName);
      verify(req, res, req.rawBody);
      req.body = undefined;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      parser(req, res, (err?: unknown) =>
        err ? reject(translateBodyError(err, limitBytes, limitName)) : resolve(),
      );
    });
  };
}

/** 413 naming the limit: `body_bytes`, or a route's own (`review_request_bytes`). */
export function bodyTooLarge(limitBytes: number, limitName: string): HttpProblem {
  const size =
    limitBytes >= 1024 * 1024 ? `${Math.round(limitBytes / 1024 / 1024)} MB` : `${limitBytes} bytes`;
  return new HttpProblem(
    413,
    'payload_too_large',
    `The body exceeds the limit ${limitName} of ${size} (after decompression).`,
    undefined,
    {},
    undefined,
    { name: limitName, value: limitBytes },
  );
}

interface BodyParserError {
  type?: string;
  status?: number;
}

export function translateBodyError(err: unknown, limitBytes: number, limitName = 'body_bytes'): HttpProblem {
  const e = err as BodyParserError;
  switch (e.type) {
    case 'entity.too.large':
      return bodyTooLarge(limitBytes, limitName);
    case 'entity.parse.failed':
      return problems.malformedJson();
    case 'encoding.unsupported':
      return problems.unsupportedMediaType('Content-Encoding must be gzip, deflate, br or identity.');
    case 'charset.unsupported':
      return problems.unsupportedMediaType('The body must be UTF-8 JSON.');
    default:
      return new HttpProblem(400, 'malformed_json', 'The request body could not be read.');
  }
}
