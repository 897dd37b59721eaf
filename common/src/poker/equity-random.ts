// Random numbers for Monte Carlo: xoshiro128** (Blackman and Vigna; 128-bit state, period
// 2^128 - 1, passes BigCrush), seeded from crypto.getRandomValues unless a seed is given, with
// bounded draws by Lemire's multiply-and-reject method (no modulo bias). Fast and statistically
// sound for simulation; NOT a cryptographic generator: it must never deal real cards.

/** xoshiro128** generator of uniform 32-bit unsigned integers. */
export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  /** The unused upper half of the last output split by belowSmall, or -1. */
  private spare = -1;

  /**
   * seed: none for a seed from crypto.getRandomValues; a number for a reproducible stream (each
   * state word is a Weyl-sequence step through the murmur3 finalizer, as splitmix does); or
   * the four state words themselves (all zero is not a valid state and becomes 1, 0, 0, 0).
   */
  constructor(seed?: number | readonly [number, number, number, number]) {
    const s = new Uint32Array(4);
    if (seed === undefined) crypto.getRandomValues(s);
    else if (typeof seed !== "number") s.set(seed);
    else {
      let x = seed >>> 0;
      for (let i = 0; i < 4; i++) {
        x = (x + 0x9e3779b9) >>> 0;
        let z = x;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
        s[i] = z ^ (z >>> 16);
      }
    }
    if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
    this.s0 = s[0]! | 0;
    this.s1 = s[1]! | 0;
    this.s2 = s[2]! | 0;
    this.s3 = s[3]! | 0;
  }

  /** Next uniform integer in [0, 2^32). */
  next(): number {
    const s1 = this.s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /** Uniform integer in [0, bound), 1 <= bound <= 2^32, without bias (Lemire's method). */
  below(bound: number): number {
    // m = x * bound (exact, < 2^53); its high 32 bits are the result, its low 32 bits decide
    // whether x fell in the short, biased slice that must be rejected.
    let m = this.next() * bound;
    let high = Math.floor(m / 0x100000000);
    let low = m - high * 0x100000000;
    if (low < bound) {
      const reject = (0x100000000 - bound) % bound; // 2^32 mod bound
      while (low < reject) {
        m = this.next() * bound;
        high = Math.floor(m / 0x100000000);
        low = m - high * 0x100000000;
      }
    }
    return high;
  }

  /**
   * Uniform integer in [0, bound), 1 <= bound <= 2^16, without bias: Lemire's method on 16 random
   * bits, so one output serves two draws and all the arithmetic stays in 32-bit integers (about
   * twice as fast as below for dealing cards).
   */
  belowSmall(bound: number): number {
    for (;;) {
      let x = this.spare;
      if (x < 0) {
        const word = this.next();
        x = word & 0xffff;
        this.spare = word >>> 16;
      } else this.spare = -1;
      const m = x * bound; // < 2^32: its high 16 bits are the draw, its low 16 bits decide rejection
      const low = m & 0xffff;
      if (low >= bound || low >= 0x10000 % bound) return m >>> 16;
    }
  }
}
