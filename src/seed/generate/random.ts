/*
 * Deterministic demo data. Every row is a pure function of (seed, id) — people also of the
 * number of companies, since they point into 1..N — so the same seed gives byte-identical
 * rows on every machine, rows can be produced in any order or in parallel, and nothing
 * has to be held in memory but a weight table of the companies.
 *
 * Randomness comes from a seeded 32-bit generator written here; the few Math functions
 * used (log, exp, pow, cos) are V8's own portable implementations, not the platform's C
 * library; and all dates are computed from a fixed snapshot date, never from the clock
 * (dates.ts).
 */

// One random stream per kind of decision, so that a change to one kind leaves the others'
// numbers as they were. The numbers are part of the dataset: changing one changes the data.
export const STREAM_BUCKET = 1;
export const STREAM_COMPANY_CORE = 2;
export const STREAM_COMPANY_DETAIL = 3;
export const STREAM_STEM = 4;
export const STREAM_ORG_ID = 5;
export const STREAM_PERSON = 6;
export const STREAM_USER_ID = 7;
export const STREAM_PERSON_SLUG = 8;
export const STREAM_EMAIL_PATTERN = 9;
export const STREAM_TITLE_FORM = 10;

/** The murmur3 finaliser: spreads the bits of a 32-bit integer. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A 32-bit key from any integer seed, including negative and large ones. */
function seedKey(seed: number): number {
  const low = seed >>> 0;
  const high = Math.floor(seed / 4294967296) >>> 0;
  return mix32(low ^ mix32(high ^ 0x5eed5eed));
}

export function streamKey(seed: number, stream: number): number {
  return mix32(seedKey(seed) ^ Math.imul(stream, 0x9e3779b9));
}

export function rowSeed(key: number, id: number): number {
  return mix32(mix32(key ^ (id >>> 0)) ^ Math.floor(id / 4294967296));
}

/** mulberry32: tiny, fast and good enough for synthetic data. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A standard normal deviate (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A log-normal value with the given median and log-space spread. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
}

export class Weighted<T> {
  readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    const usable = entries.filter(([, w]) => w > 0);
    if (usable.length === 0) throw new Error('a weighted table needs at least one positive weight');
    this.items = usable.map(([item]) => item);
    this.cumulative = new Float64Array(usable.length);
    let sum = 0;
    usable.forEach(([, w], i) => {
      sum += w;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pick(rng: Rng): T {
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] as number) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo] as T;
  }
}

/**
 * A bijection on [0, 2^bits): rounds of add-a-key, multiply-by-odd and xorshift, each of
 * which is invertible modulo a power of two. Used to hand out unique identifiers that do
 * not look sequential.
 */
export class Permutation {
  private readonly mask: number;
  private readonly shift: number;
  private readonly keys: readonly [number, number, number];

  constructor(bits: number, key: number) {
    this.mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
    this.shift = Math.max(1, bits >>> 1);
    this.keys = [mix32(key), mix32(key + 1), mix32(key + 2)];
  }

  apply(x: number): number {
    const { mask, shift } = this;
    let y = x;
    for (const k of this.keys) {
      y = ((y + k) & mask) >>> 0;
      y = (Math.imul(y, (k | 1) >>> 0) & mask) >>> 0;
      y = (y ^ (y >>> shift)) >>> 0;
    }
    return y;
  }
}

/** A bijection on [0, size) by cycle walking inside the enclosing power of two. */
export class RangePermutation {
  private readonly permutation: Permutation;

  constructor(
    private readonly size: number,
    key: number,
  ) {
    let bits = 1;
    while (2 ** bits < size) bits++;
    this.permutation = new Permutation(bits, key);
  }

  apply(x: number): number {
    let y = this.permutation.apply(x);
    while (y >= this.size) y = this.permutation.apply(y);
    return y;
  }
}

/**
 * A unique, non-sequential number for the id: a bijection of id-1 on `bits` bits plus an
 * offset, and for the (never seen) ids beyond that space, a plain offset above it.
 */
export function uniqueNumber(id: number, bits: number, permutation: Permutation, offset: number): number {
  const space = 2 ** bits;
  const n = id - 1;
  return n < space ? permutation.apply(n) + offset : space + offset + n;
}
