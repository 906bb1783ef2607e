import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server got: one entry per request, in order. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** The body's bytes as they came (gzip included). */
  raw: Buffer;
  /** The body parsed as JSON, undefined when empty or not JSON. */
  body: unknown;
}
export type Answer = (res: ServerResponse, seen: Seen) => void;

export interface ScriptedApi {
  readonly baseUrl: string;
  /** Answers for the next requests, one each, in order; an unscripted request gets a 500. */
  script: Answer[];
  readonly seen: Seen[];
}

/**
 * A real HTTP server on loopback whose answers are scripted per test, recording every request. Started
 * before the file's tests, emptied before each, closed after all.
 */
export function useScriptedApi(): ScriptedApi {
  let server: Server;
  const api = { baseUrl: '', script: [] as Answer[], seen: [] as Seen[] };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const s = { method: req.method!, url: req.url!, headers: req.headers, raw, body: parseJson(raw) };
        api.seen.push(s);
        const answer = api.script.shift();
        if (answer) answer(res, s);
        else res.writeHead(500).end('unscripted request');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    api.script = [];
    api.seen = [];
  });
  return api;
}

function parseJson(raw: Buffer): unknown {
  try {
    return raw.length ? JSON.parse(raw.toString()) : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON answer. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}
