import { nextTurn } from '../../domain/turns.js';
import { QUOTE, skipWhitespace, stringEnd, valueEnd } from './json-split.js';

/**
 * A JSON body parsed in turns. JSON.parse holds the event loop for as long as the whole text takes
 * (over a second for 25 MB of small values on a busy core), and every other request waits. Here the
 * bytes are first scanned, in turns, for the nesting depth and the number of values (refused past
 * `maxDepth` or `maxValues` before anything is parsed) and the spans of the arrays and objects larger than `wholeBytes`. Those are then put together
 * from runs of their smaller values, each run parsed by JSON.parse, with a turn after every `turnBytes`
 * parsed. The result is JSON.parse's: the same values, keys in the same order, the last of a repeated
 * key kept; malformed JSON throws a SyntaxError as JSON.parse does.
 */

export class JsonTooDeep extends Error {
  override name = 'JsonTooDeep';
}

export class JsonTooManyValues extends Error {
  override name = 'JsonTooManyValues';
}

export interface TurnOptions {
  maxDepth: number;
  /** Values counted before anything is parsed: each array and object, and each element or member after a first. */
  maxValues?: number;
  /** A value at most this long is parsed by one JSON.parse (a few milliseconds at most). */
  wholeBytes?: number;
  /** Bytes scanned or parsed between two turns. */
  turnBytes?: number;
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const malformed = () => new SyntaxError('Malformed JSON');

/** Where each large array or object ends (by where it starts); throws past `maxDepth` or `maxValues`. */
async function scan(b: Buffer, options: TurnOptions, wholeBytes: number, turnBytes: number) {
  const { maxDepth, maxValues = Infinity } = options;
  const large = new Map<number, number>();
  const open: number[] = [];
  let values = 0;
  let turnAt = turnBytes;
  for (let i = 0; i < b.length; i++) {
    if (i >= turnAt) {
      await nextTurn();
      turnAt = i + turnBytes;
    }
    const c = b[i];
    if (c === QUOTE) {
      const end = stringEnd(b, i, b.length);
      if (end === -1) throw malformed();
      i = end - 1;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (open.length >= maxDepth) throw new JsonTooDeep(`deeper than ${maxDepth}`);
      if (++values > maxValues) throw new JsonTooManyValues(`more than ${maxValues} values`);
      open.push(i);
    } else if (c === COMMA) {
      if (++values > maxValues) throw new JsonTooManyValues(`more than ${maxValues} values`);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      const start = open.pop();
      // `}` and `]` are two past `{` and `[`.
      if (start === undefined || b[start] !== c - 2) throw malformed();
      if (i + 1 - start > wholeBytes) large.set(start, i + 1);
    }
  }
  if (open.length > 0) throw malformed();
  return large;
}

class Builder {
  private sinceTurn = 0;

  constructor(
    private readonly b: Buffer,
    private readonly large: Map<number, number>,
    private readonly wholeBytes: number,
    private readonly turnBytes: number,
  ) {}

  private async spent(bytes: number): Promise<void> {
    this.sinceTurn += bytes;
    if (this.sinceTurn < this.turnBytes) return;
    this.sinceTurn = 0;
    await nextTurn();
  }

  /** JSON.parse of the values from `start` to `end` (with their commas) inside `open` and `close`. */
  private async run(open: string, start: number, end: number, close: string): Promise<unknown> {
    const parsed: unknown = JSON.parse(open + this.b.toString('utf8', start, end) + close);
    await this.spent(end - start);
    return parsed;
  }

  private after(i: number, end: number): number {
    const next = this.large.get(i) ?? valueEnd(this.b, i, end);
    if (next === -1) throw malformed();
    return next;
  }

  /** The large array or object from `start` to `end`, put together from runs of its smaller values. */
  async container(start: number, end: number): Promise<unknown> {
    const b = this.b;
    const isArray = b[start] === OPEN_ARRAY;
    const closer = isArray ? CLOSE_ARRAY : CLOSE_OBJECT;
    const out: unknown[] | Record<string, unknown> = isArray ? [] : {};
    const put = (key: string, value: unknown) =>
      Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    let runStart = -1;
    let runEnd = -1;
    const flush = async () => {
      if (runStart === -1) return;
      const parsed = await this.run(isArray ? '[' : '{', runStart, runEnd, isArray ? ']' : '}');
      if (Array.isArray(out)) for (const v of parsed as unknown[]) out.push(v);
      else for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) put(k, v);
      runStart = -1;
    };
    let i = skipWhitespace(b, start + 1, end);
    if (b[i] === closer) {
      if (i !== end - 1) throw malformed();
      return out;
    }
    for (;;) {
      const memberStart = i;
      let key = '';
      if (!isArray) {
        if (b[i] !== QUOTE) throw malformed();
        const keyEnd = stringEnd(b, i, end);
        if (keyEnd === -1) throw malformed();
        key = JSON.parse(b.toString('utf8', i, keyEnd)) as string;
        i = skipWhitespace(b, keyEnd, end);
        if (b[i] !== COLON) throw malformed();
        i = skipWhitespace(b, i + 1, end);
      }
      const valueEndsAt = this.after(i, end);
      if (this.large.has(i)) {
        await flush();
        const value = await this.container(i, valueEndsAt);
        if (Array.isArray(out)) out.push(value);
        else put(key, value);
      } else {
        if (runStart === -1) runStart = memberStart;
        runEnd = valueEndsAt;
        if (runEnd - runStart >= this.wholeBytes) await flush();
      }
      i = skipWhitespace(b, valueEndsAt, end);
      if (b[i] === COMMA) {
        i = skipWhitespace(b, i + 1, end);
        continue;
      }
      if (b[i] !== closer || i !== end - 1) throw malformed();
      await flush();
      return out;
    }
  }
}

export async function parseJsonInTurns(b: Buffer, options: TurnOptions): Promise<unknown> {
  const wholeBytes = options.wholeBytes ?? 32 * 1024;
  const turnBytes = options.turnBytes ?? 64 * 1024;
  const large = await scan(b, options, wholeBytes, turnBytes * 4);
  const root = skipWhitespace(b, 0, b.length);
  const rootEnd = large.get(root);
  // Small enough (or not a large array or object): one JSON.parse, which also gives its usual errors.
  if (rootEnd === undefined) return JSON.parse(b.toString('utf8'));
  const value = await new Builder(b, large, wholeBytes, turnBytes).container(root, rootEnd);
  if (skipWhitespace(b, rootEnd, b.length) !== b.length) throw malformed();
  return value;
}
