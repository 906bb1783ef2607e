/**
 * Step 1's index of the baseline's fingerprints (matching/matcher.ts): an open-addressing table of
 * integers over the fingerprint strings themselves. A Map of 50,000 fingerprints, or checking that a
 * scan came back sorted and merging it, cost about three times as much. Pure.
 */

/** A 32-bit key from up to 16 characters spread over the string (a fingerprint's hex is uniform). */
function keyOf(s: string): number {
  let h = 0x811c9dc5 ^ s.length;
  const step = s.length > 16 ? s.length >> 4 : 1;
  for (let k = 0; k < s.length; k += step) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h ^ (h >>> 15);
}

export class FingerprintTable {
  private readonly mask: number;
  /** Per slot: the value stored (≥ 0, or a negative group tag), or EMPTY. */
  private readonly values: Int32Array;
  private readonly keys: Int32Array;
  /** Per slot: the index in `fingerprints` of the slot's fingerprint. */
  private readonly at: Int32Array;

  constructor(private readonly fingerprints: readonly string[]) {
    let size = 8;
    while (size < fingerprints.length * 2) size *= 2;
    this.mask = size - 1;
    this.values = new Int32Array(size).fill(EMPTY);
    this.keys = new Int32Array(size);
    this.at = new Int32Array(size);
  }

  /** The slot of `s`: where it is, or the empty slot where it would go. */
  private slot(s: string, key: number): number {
    let i = key & this.mask;
    while (this.values[i] !== EMPTY && (this.keys[i] !== key || this.fingerprints[this.at[i]] !== s)) {
      i = (i + 1) & this.mask;
    }
    return i;
  }

  /** The value stored for this fingerprint, or undefined. */
  get(s: string): number | undefined {
    const v = this.values[this.slot(s, keyOf(s))];
    return v === EMPTY ? undefined : v;
  }

  /** Stores a value for `fingerprints[index]`. */
  set(index: number, value: number): void {
    const s = this.fingerprints[index];
    const key = keyOf(s);
    const i = this.slot(s, key);
    if (this.values[i] === EMPTY) {
      this.keys[i] = key;
      this.at[i] = index;
    }
    this.values[i] = value;
  }
}

const EMPTY = -2_147_483_648;
