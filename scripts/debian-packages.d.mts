/** Installs the Debian package of each binary (a command or an absolute path) that is missing; throws when it cannot. */
export function ensureDebianPackages(needed: Record<string, string>): void;
