import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import type { Context } from '../context.ts';
import { users } from '../db/schema.ts';

export const INITIAL_ADMIN_EMAIL = 'admin@lms.local';
export const INITIAL_ADMIN_NAME = 'LMS Admin';
export const INITIAL_ADMIN_FILE = 'initial-admin.txt';

/**
 * While no administrator exists, creates one with a random password,
 * kept in DATA_DIR/initial-admin.txt (mode 600), so a newcomer can sign in as admin
 * without stopping the server. The password itself is printed only when `interactive`
 * (standard output is a terminal): anywhere else (a journal, a piped log) it would be
 * kept, and readable by more people than the file, for as long as the logs are.
 */
export async function ensureInitialAdmin(
  ctx: Pick<Context, 'db' | 'passwords'> & { config: Pick<Config, 'dataDir'> },
  log: (message: string) => void,
  { interactive }: { interactive: boolean } = { interactive: false },
): Promise<void> {
  if (await hasAdmin(ctx)) return;
  const password = randomPassword();
  const file = path.join(ctx.config.dataDir, INITIAL_ADMIN_FILE);
  // Written before the account exists and renamed into place after, so the credentials are never lost
  // and instances starting together against one PostgreSQL never leave a file for an account they did not create.
  const draft = `${file}.${randomBytes(6).toString('hex')}.part`;
  await fs.mkdir(ctx.config.dataDir, { recursive: true });
  await fs.writeFile(draft, `email: ${INITIAL_ADMIN_EMAIL}\npassword: ${password}\n`, { flag: 'wx', mode: 0o600 });
  try {
    const [created] = await ctx.db
      .insert(users)
      .values({
        email: INITIAL_ADMIN_EMAIL,
        fullName: INITIAL_ADMIN_NAME,
        passwordHash: await ctx.passwords.hash(password),
        role: 'ADMIN',
        // The password was printed and written to a file: it must not stay the one in use.
        mustChangePassword: true,
      })
      .onConflictDoNothing({ target: users.email })
      .returning({ id: users.id });
    if (!created) {
      // Another instance won the race, or someone signed up with this email: never take over their account.
      if (!(await hasAdmin(ctx))) {
        log(
          `No administrator exists and ${INITIAL_ADMIN_EMAIL} is taken by an ordinary account; create one with: npm run admin -- --email E --password P --name N`,
        );
      }
      await fs.rm(draft, { force: true });
      return;
    }
  } catch (error) {
    await fs.rm(draft, { force: true });
    throw error;
  }
  await fs.rename(draft, file);
  log(
    [
      'No administrator existed, so one was created. Sign in and change its password:',
      `  email:    ${INITIAL_ADMIN_EMAIL}`,
      interactive ? `  password: ${password}` : `  password: in ${file}`,
      ...(interactive ? [`(also kept in ${file}, readable only by this user)`] : []),
    ].join('\n'),
  );
}

async function hasAdmin(ctx: Pick<Context, 'db'>): Promise<boolean> {
  const [admin] = await ctx.db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1);
  return admin !== undefined;
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SPECIALS = '!@#$%^&*';

/**
 * 16 characters (the most the contract's passwordPattern allows), at least one of each kind,
 * without look-alikes (l, I, O, 0, 1) since people copy it by eye: about 95 bits.
 */
export function randomPassword(length = 16): string {
  const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;
  const all = LOWER + UPPER + DIGITS + SPECIALS;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SPECIALS)];
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** Once the initial administrator has chosen a password, the printed one and its file are of no use. */
export async function forgetInitialAdminPassword(ctx: { config: Pick<Config, 'dataDir'> }): Promise<void> {
  await fs.rm(path.join(ctx.config.dataDir, INITIAL_ADMIN_FILE), { force: true });
}
