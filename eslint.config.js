import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** The TypeScript the workspaces compile: linted with type information, which the promise rules need. */
const typedFiles = ['server/**/*.{ts,tsx}', 'contract/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}', 'e2e/**/*.{ts,tsx}', 'bench/**/*.{ts,tsx}'];

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', 'data/', 'server/src/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // A promise nobody awaits fails silently, and one handed where a callback's result is ignored
    // (an event handler, a forEach) rejects unhandled.
    files: typedFiles,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'warn',
      '@typescript-eslint/no-misused-promises': 'warn',
    },
  },
  {
    // Already clean of both: errors here, so none comes back.
    files: [
      'e2e/**/*.ts',
      'bench/**/*.ts',
      'server/src/{backup,cli,db}/**/*.ts',
      'server/src/{config,jobs,job-queue,mail,main,changes,metrics,health,rate-limit,secrets,data-dir}{,.test}.ts',
    ],
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', fetch: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly' } },
  },
);
