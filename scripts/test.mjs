// `npm test`: everything that proves the product works, in the order that fails fastest.
// CI (.ci/run) sets TEST_DATABASE_URL and TEST_REDIS_URL so the server tests also run on
// PostgreSQL and the shared rate-limit test runs against Redis.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Test runners write JSON reports here; the closing line sums them up.
const results = path.join(root, 'test-results');
const steps = [
  ['typecheck', 'npm', ['run', 'typecheck']],
  ['lint', 'npm', ['run', 'lint']],
  ['server tests', 'npm', ['test', '--workspace', 'server']],
  ['web tests', 'npm', ['test', '--workspace', 'web']],
];

fs.rmSync(results, { recursive: true, force: true });
let failedStep;
for (const [name, command, args] of steps) {
  console.log(`\n▶ ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failedStep = name;
    break;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
for (const file of fs.existsSync(results) ? fs.readdirSync(results) : []) {
  const report = JSON.parse(fs.readFileSync(path.join(results, file), 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}
if (failedStep) console.error(`\n✗ ${failedStep} failed`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep || totals.failed > 0 || totals.passed === 0 ? 1 : 0);
