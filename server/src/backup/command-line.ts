import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config.ts';

export type CommandEnd = { code: number; output: string };

/**
 * What `npm run backup` and `npm run restore` are asked: the one file named (if any) and the
 * server's configuration; or, for --help, a bad command line or a bad variable, how to end.
 */
export function readCommandLine(
  argv: string[],
  env: NodeJS.ProcessEnv,
  { usage, fileRequired }: { usage: string; fileRequired: boolean },
): { file: string | undefined; config: Config } | CommandEnd {
  let values: { help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true }));
  } catch (error) {
    return { code: 2, output: `${(error as Error).message}\n\n${usage}` };
  }
  if (values.help) return { code: 0, output: usage };
  if (positionals.length > 1 || (fileRequired && positionals.length === 0)) {
    return { code: 2, output: `${fileRequired ? 'Name one backup file' : 'One file at most'}\n\n${usage}` };
  }
  try {
    return { file: positionals[0], config: loadConfig(env) };
  } catch (error) {
    if (error instanceof ConfigError) return { code: 1, output: error.message };
    throw error;
  }
}
