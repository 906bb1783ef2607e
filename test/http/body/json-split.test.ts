import fc from 'fast-check';
import { splitArray, splitObject } from '../../../api/http/body/json-split.js';

const members = (text: string) => {
  const b = Buffer.from(text);
  return splitObject(b)?.map((m) => [m.key, JSON.parse(b.toString('utf8', m.start, m.end)) as unknown]);
};

describe('splitting a JSON body into byte ranges', () => {
  test('members and elements come out as their own JSON, whatever the strings hold', () => {
    const text = ' {"a" : "x\\"}]\\\\", "pages":[ {"u":"[{"}, [1,2] ,null,"\\u0022"] ,"é":{"k":[]}} ';
    expect(members(text)).toEqual([
      ['a', 'x"}]\\'],
      ['pages', [{ u: '[{' }, [1, 2], null, '"']],
      ['é', { k: [] }],
    ]);
    const b = Buffer.from(text);
    const pages = splitObject(b)!.find((m) => m.key === 'pages')!;
    expect(
      splitArray(b, pages.start, pages.end)!.map(([s, e]) => JSON.parse(b.toString('utf8', s, e)) as unknown),
    ).toEqual([{ u: '[{' }, [1, 2], null, '"']);
  });

  test('anything but a well-formed object is refused (the caller then parses the body whole)', () => {
    for (const bad of [
      '',
      '[]',
      '{"a":1',
      '{"a":1}x',
      '{"a" 1}',
      '{"a":1,}',
      '{a:1}',
      '{"a":1 "b":2}',
      '{"a":"x}',
    ]) {
      expect([bad, splitObject(Buffer.from(bad))]).toEqual([bad, undefined]);
    }
    expect(splitArray(Buffer.from('[1,]'), 0, 4)).toBeUndefined();
    expect(splitArray(Buffer.from('[1 2]'), 0, 5)).toBeUndefined();
    expect(members('{}')).toEqual([]);
  });

  test('any JSON object splits into members equal to what JSON.parse gives', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const text = JSON.stringify(obj, null, 1);
        expect(Object.fromEntries(members(text)!)).toEqual(JSON.parse(text));
      }),
      { seed: 17, numRuns: 300 },
    );
  });
});
