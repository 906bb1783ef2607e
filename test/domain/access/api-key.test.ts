import { generateApiKey, hashSecret, parseApiKey, safeEqual } from '../../../api/domain/access/api-key.js';
import { newId } from '../../../api/domain/ids.js';

describe('API key format', () => {
  test('a generated key parses back to its public id and hashes to the stored hash', () => {
    const g = generateApiKey();
    expect(g.key.startsWith(g.prefix + '_')).toBe(true);
    const parsed = parseApiKey(g.key);
    expect(parsed?.publicId).toBe(g.publicId);
    expect(hashSecret(g.key)).toBe(g.secretHash);
  });

  test('the checksum rejects any single-character change and foreign strings', () => {
    const { key } = generateApiKey();
    for (const i of [5, 17, 30, key.length - 1]) {
      const c = key[i] === 'x' ? 'y' : 'x';
      expect(parseApiKey(key.slice(0, i) + c + key.slice(i + 1))).toBeNull();
    }
    expect(parseApiKey('')).toBeNull();
    expect(parseApiKey('ghp_' + 'a'.repeat(36))).toBeNull();
    expect(parseApiKey(key + 'a')).toBeNull();
  });

  test('keys and ids are unique and prefixed', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
    expect(newId('scn')).toMatch(/^scn_[0-9A-Za-z]{20}$/);
  });

  test('safeEqual compares by value', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
  });
});
