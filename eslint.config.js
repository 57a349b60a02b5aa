import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/**
 * The web app's layers (docs/decisions/0024-web-layers.md): imports run app → features → lib.
 * lib/ imports neither the app nor a feature; a feature does not import the app, and reaches another
 * feature only through that feature's index ("../courses", never "../courses/CourseCard"). Tests may
 * import the app (they build its store). The router's lazy imports of pages are `import()`, which
 * this rule does not look at.
 */
const webFeatures = readdirSync(new URL('./web/src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const noApp = { regex: '^(\\.\\./)+app(/|$)', message: 'The app shell (web/src/app) is above the features and lib: it imports them, not the other way round.' };
const noFeature = { regex: '^(\\.\\./)+features(/|$)', message: 'lib/ is shared by every feature: it imports none.' };
const throughIndex = (name) => ({
  regex: `^\\.\\./(?!${name}/)[^./][^/]*/`,
  message: 'Another feature is reached through its index: import from "../<feature>", not from a file inside it.',
});
// The contract's bindings carry every runtime schema and OpenAPI text: the server's, never in a browser bundle.
const noServerBindings = { regex: '^@lms/contract/api$', message: 'contract/api is the server’s: the web app takes endpoints from @lms/contract/endpoints.' };
const webLayers = [
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noServerBindings] }] },
  },
  {
    files: ['web/src/lib/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noApp, noFeature, noServerBindings] }] },
  },
  ...webFeatures.flatMap((name) => [
    {
      files: [`web/src/features/${name}/**/*.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns: [noApp, throughIndex(name), noServerBindings] }] },
    },
    {
      files: [`web/src/features/${name}/**/*.test.{ts,tsx}`],
      rules: { 'no-restricted-imports': ['error', { patterns: [throughIndex(name), noServerBindings] }] },
    },
  ]),
];
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
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  ...webLayers,
  {
    // Browser JavaScript served as it is (a classic script, not a module): the sandbox's Checkout.
    files: ['server/src/features/sandbox/browser/**/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly', fetch: 'readonly', setTimeout: 'readonly' } },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
);
