// Tools the tests and the benchmarks drive (Chromium, wrk, nginx…) come from Debian's
// packages, never from downloads by the tools themselves; installed here when missing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const isInstalled = (binary) => (binary.startsWith('/') ? fs.existsSync(binary) : spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0);

/** Installs the package of each binary (a command or an absolute path) that is missing; throws when it cannot. */
export function ensureDebianPackages(needed) {
  const packages = [
    ...new Set(
      Object.entries(needed)
        .filter(([binary]) => !isInstalled(binary))
        .map(([, pkg]) => pkg),
    ),
  ];
  if (packages.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`Missing ${packages.join(', ')}, and not root to install them: run 'apt-get update && apt-get install -y ${packages.join(' ')}' as root.`);
  }
  console.log(`Installing ${packages.join(', ')} from Debian's packages…`);
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...packages],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed`);
  }
}
