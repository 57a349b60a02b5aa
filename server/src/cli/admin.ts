import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AdminSchema } from '@lms/contract/users';
import { closeToOthers, makeDataDirPrivate } from '../data-dir.ts';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { databaseTargetOf, openDatabase, type Database } from '../db/client.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { createPasswordHasher } from '../features/auth/password.ts';
import { createOrPromoteAdmin } from '../features/users/users.service.ts';

export const USAGE = `Usage: npm run admin -- --email <email> --password <password> --name <full name>

Creates an administrator, or makes the account with that email one (and sets its password).
Uses the database the server uses: DATABASE_URL when set, otherwise the embedded one in DATA_DIR.
Password: 6-16 letters, digits and !@#$%^&*, with at least one digit and one special character.`;

/** `npm run admin`: returns what to print and the exit code, so tests run it in-process. */
export async function runAdminCommand(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  let values: ReturnType<typeof readOptions>;
  try {
    values = readOptions(argv);
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (values.help) return { code: 0, output: USAGE };
  const missing = (['email', 'password', 'name'] as const).filter((option) => values[option] === undefined);
  if (missing.length > 0) return usageError(`Missing ${missing.map((option) => `--${option}`).join(', ')}`);
  const input = AdminSchema.safeParse({ email: values.email, password: values.password, fullName: values.name });
  if (!input.success) {
    const option = { email: '--email', password: '--password', fullName: '--name' } as Record<string, string>;
    return usageError(input.error.issues.map((issue) => `${option[String(issue.path[0])]}: ${issue.message}`).join('\n'));
  }

  let config: Config;
  let database: Database;
  try {
    config = loadConfig(env);
    const target = databaseTargetOf(config);
    // As the server does: a first run on a fresh folder must not leave the database readable by others.
    if ('dir' in target) makeDataDirPrivate(config.dataDir);
    database = await openDatabase(target);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) return { code: 1, output: error.message };
    return { code: 1, output: `Could not open the database: ${(error as Error).message}` };
  }
  try {
    const { user, created } = await createOrPromoteAdmin({ db: database.db, passwords: createPasswordHasher(config.passwordCost) }, input.data);
    return { code: 0, output: created ? `Created administrator ${user.email}` : `Promoted ${user.email} to administrator` };
  } finally {
    await database.close();
    // PGlite writes its files with modes of its own (0666, 0644), past the umask: closed once it is done.
    const target = databaseTargetOf(config);
    if ('dir' in target) closeToOthers(target.dir);
  }
}

function readOptions(argv: string[]) {
  const options = {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  return parseArgs({ args: argv, options }).values;
}

function usageError(problem: string) {
  return { code: 2, output: `${problem}\n\n${USAGE}` };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // npm runs workspace scripts inside server/; a relative DATA_DIR means the folder the command was typed in.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  const { code, output } = await runAdminCommand(process.argv.slice(2), process.env);
  (code === 0 ? process.stdout : process.stderr).write(`${output}\n`);
  process.exitCode = code;
}
