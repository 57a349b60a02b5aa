import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;

interface Cost {
  N: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export interface PasswordHasher {
  /** `scrypt$N$r$p$salt$key`, salt and key in base64. */
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** Spends the time of a verify, so an unknown email answers as slowly as a wrong password. */
  verifyNothing(password: string): Promise<false>;
}

/**
 * scrypt, by default at OWASP's recommended cost (N=2^17, r=8, p=1: 128 MiB, ~0.5 s here).
 * The parameters travel inside each hash, so the cost can change without
 * invalidating stored passwords; tests lower it to stay quick.
 */
export function createPasswordHasher(costLog2 = 17): PasswordHasher {
  const cost = { N: 2 ** costLog2, r: 8, p: 1 };
  const hash = async (password: string) => {
    const salt = randomBytes(16);
    const key = await derive(password, salt, cost);
    return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
  };
  const verify = async (password: string, stored: string) => {
    const [scheme, N, r, p, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64');
    const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(N), r: Number(r), p: Number(p) });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  };
  let decoy: Promise<string> | undefined;
  const verifyNothing = async (password: string) => {
    decoy ??= hash(randomBytes(12).toString('base64'));
    await verify(password, await decoy);
    return false as const;
  };
  return { hash, verify, verifyNothing };
}
