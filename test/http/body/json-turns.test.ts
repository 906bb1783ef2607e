import fc from 'fast-check';
import {
  JsonTooDeep,
  JsonTooManyValues,
  parseJsonInTurns,
  type TurnOptions,
} from '../../../api/http/body/json-turns.js';

/** Tiny runs and turns, so every value of a generated document goes through the assembling path. */
const SMALL: TurnOptions = { maxDepth: 64, wholeBytes: 8, turnBytes: 16 };

/** JSON.parse's answer, or its error's name. */
function whole(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return (err as Error).name;
  }
}

async function inTurns(text: string, options = SMALL): Promise<unknown> {
  try {
    return await parseJsonInTurns(Buffer.from(text), options);
  } catch (err) {
    return (err as Error).name;
  }
}

/** Values and the order of every object's keys. */
const shape = (v: unknown): string => JSON.stringify(v);

describe('parsing a JSON body in turns', () => {
  test('gives what JSON.parse gives for any document, however laid out', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom(undefined, 1, '\t', '  \n'), async (value, space) => {
        const text = ` ${JSON.stringify(value, null, space)} `;
        const parsed = await inTurns(text);
        expect(parsed).toEqual(JSON.parse(text));
        expect(shape(parsed)).toBe(shape(JSON.parse(text)));
      }),
      { seed: 4040, numRuns: 500 },
    );
  });

  test('keeps the last of a repeated key in the first one’s place, and __proto__ as an own key', async () => {
    const text = '{"a":[1,2,{"b":"c\\"]"}],"__proto__":{"x":1},"1":2,"a":3}';
    const parsed = (await inTurns(text)) as Record<string, unknown>;
    expect(shape(parsed)).toBe(shape(JSON.parse(text)));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(['1', 'a', '__proto__']);
  });

  test('malformed text is a SyntaxError wherever JSON.parse finds one', async () => {
    const malformed = [
      '',
      '[1,]',
      '{"a":1,}',
      '[1 2]',
      '{"a" 1}',
      '{}x',
      '[{]}',
      '[[1,2],[3,4]',
      '{"a":[1,2,3]]',
      '["\\x"]',
      '[tru]',
      '\uFEFF[]',
    ];
    for (const text of malformed) expect([text, await inTurns(text)]).toEqual([text, 'SyntaxError']);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.nat(), fc.string({ maxLength: 2 }), async (value, at, cut) => {
        const json = JSON.stringify(value);
        const text = json.slice(0, at % (json.length + 1)) + cut + json.slice((at % (json.length + 1)) + 1);
        const expected = whole(text);
        const parsed = await inTurns(text);
        expect(parsed).toEqual(expected);
      }),
      { seed: 4041, numRuns: 500 },
    );
  });

  test('nesting past the limit is refused before anything is parsed', async () => {
    expect(await inTurns('[[[[1]]]]', { ...SMALL, maxDepth: 4 })).toEqual([[[[1]]]]);
    expect(await inTurns('[[[[[1]]]]]', { ...SMALL, maxDepth: 4 })).toBe('JsonTooDeep');
    // A chain far deeper than any stack: the depth is counted without parsing or recursion.
    const deep = Buffer.from('{"a":'.repeat(1_000_000) + '1' + '}'.repeat(1_000_000));
    await expect(parseJsonInTurns(deep, { maxDepth: 64 })).rejects.toBeInstanceOf(JsonTooDeep);
  });

  test('more values than the limit are refused before anything is parsed', async () => {
    // Each array and object, and each element or member after a first: [1,{"a":2,"b":[]}] holds five.
    const text = '[1,{"a":2,"b":[]}]';
    expect(await inTurns(text, { ...SMALL, maxValues: 5 })).toEqual(JSON.parse(text));
    expect(await inTurns(text, { ...SMALL, maxValues: 4 })).toBe('JsonTooManyValues');
    const many = Buffer.from(`[${'{},'.repeat(1_000_000)}{}]`);
    await expect(parseJsonInTurns(many, { maxDepth: 64, maxValues: 1000 })).rejects.toBeInstanceOf(
      JsonTooManyValues,
    );
  });

  test('other work runs between the turns of a large body', async () => {
    const text = JSON.stringify({ pages: Array.from({ length: 20_000 }, (_, i) => ({ url: `/p/${i}` })) });
    let turns = 0;
    let parsing = true;
    const count = () => {
      turns++;
      if (parsing) setImmediate(count);
    };
    setImmediate(count);
    const parsed = await parseJsonInTurns(Buffer.from(text), {
      maxDepth: 64,
      wholeBytes: 4096,
      turnBytes: 16384,
    });
    parsing = false;
    expect(parsed).toEqual(JSON.parse(text));
    expect(turns).toBeGreaterThan(10);
  });
});
