import { gzipSync } from 'node:zlib';

/** A request as it goes on the wire, the same bytes and headers on every attempt. */
export interface PostRequest {
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  /** Absent on a GET. */
  payload?: Buffer;
}

export function postRequest(
  body: unknown,
  idempotencyKey: string,
  options: { apiKey: string; userAgent: string; gzipAboveBytes: number },
): PostRequest {
  const json = Buffer.from(JSON.stringify(body), 'utf8');
  const compress = json.length > options.gzipAboveBytes;
  return {
    method: 'POST',
    payload: compress ? gzipSync(json) : json,
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      'content-type': 'application/json',
      accept: 'application/json, application/problem+json',
      'idempotency-key': idempotencyKey,
      'user-agent': options.userAgent,
      ...(compress ? { 'content-encoding': 'gzip' } : {}),
    },
  };
}

/** A keyed GET: nothing to send but the key, so any attempt may be repeated. */
export function getRequest(options: { apiKey: string; userAgent: string }): PostRequest {
  return {
    method: 'GET',
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      accept: 'application/json, application/problem+json',
      'user-agent': options.userAgent,
    },
  };
}

/** One attempt: the answer and its whole text, or why there was none. */
export async function send(
  url: string,
  request: PostRequest,
  timeoutMs: number,
): Promise<{ res: Response; text: string } | { failure: unknown }> {
  try {
    const res = await fetch(url, {
      method: request.method,
      headers: request.headers,
      body: request.payload,
      // Not followed: a redirect would carry the key to another host (or turn the POST into a GET).
      // 'manual' rather than 'error' so it is reported as the configuration mistake it is, not as an
      // outage that `fail-on-error: false` would wave through.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    // Read inside the try: a connection that breaks mid-answer is a network error, retried like one.
    return { res, text: await res.text() };
  } catch (failure) {
    return { failure };
  }
}
