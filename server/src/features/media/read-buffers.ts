/**
 * Buffers for reading a range or a segment whole, used again once its answer is written: a fresh
 * megabyte for every range costs the kernel its pages each time (a quarter of the CPU of a read).
 * A buffer goes back only once the socket has taken every byte of it (the response's 'finish');
 * one of an abandoned answer is left to the garbage collector.
 */
export interface ReadBuffers {
  /** A buffer of exactly `length` bytes, of unspecified content. */
  take(length: number): Buffer;
  /** `buffer`, from `take`, is no longer read by anyone. */
  give(buffer: Buffer): void;
  /** How many bytes are kept for later (tests). */
  readonly keptBytes: number;
}

/** Sizes are rounded up to a power of two from this one, so that a buffer serves the next range or segment of about its size. */
const SMALLEST = 64 * 1024;

export function createReadBuffers({ largest = 4 * 1024 * 1024, maxKeptBytes = 32 * 1024 * 1024 } = {}): ReadBuffers {
  const free = new Map<number, ArrayBuffer[]>();
  // Lent out and not yet given back: a buffer given back twice, or never lent, is not kept.
  const lent = new WeakSet<ArrayBuffer>();
  let keptBytes = 0;
  const sizeFor = (length: number) => Math.max(SMALLEST, 2 ** Math.ceil(Math.log2(Math.max(1, length))));
  return {
    take(length) {
      const size = sizeFor(length);
      if (size > largest) return Buffer.allocUnsafe(length);
      const kept = free.get(size)?.pop();
      if (kept) keptBytes -= size;
      const whole = kept ?? (Buffer.allocUnsafeSlow(size).buffer as ArrayBuffer);
      lent.add(whole);
      return Buffer.from(whole, 0, length);
    },
    give(buffer) {
      const whole = buffer.buffer as ArrayBuffer;
      if (!lent.has(whole)) return;
      lent.delete(whole);
      const size = whole.byteLength;
      if (keptBytes + size > maxKeptBytes) return;
      let list = free.get(size);
      if (!list) free.set(size, (list = []));
      list.push(whole);
      keptBytes += size;
    },
    get keptBytes() {
      return keptBytes;
    },
  };
}
