// A seeded random source for tests that choose at random: the seed is logged, and the same seed
// gives the same choices (mulberry32: small, fast, good enough for picking test operations).

export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** The seed from TEST_SEED when set (to replay a run), else a fresh one. */
export function seedFromEnv(): number {
  const fromEnv = process.env.TEST_SEED;
  return fromEnv ? Number(fromEnv) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    seed,
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick from nothing");
      return items[int(0, items.length - 1)]!;
    },
    chance: (p) => next() < p,
  };
}
