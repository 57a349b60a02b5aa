import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

/** The repository's root, where eslint.config.js holds the web app's layers. */
const root = path.resolve(import.meta.dirname, '../../..');
// The files linted here are made up, so no tsconfig holds them: linted without type information
// (and without the rules that need it), which the layer rule does not use.
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

/** The layer rule's complaints about `source`, as if it were the file at `path` (from the repository's root). */
async function complaints(path: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath: path });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

describe('the web layers (eslint.config.js)', () => {
  it('refuses a feature importing a file inside another feature', async () => {
    const found = await complaints('web/src/features/home/Example.tsx', "import { CourseCard } from '../courses/CourseCard';\nexport const x = CourseCard;\n");
    expect(found).toEqual([expect.stringContaining('through its index')]);
  });

  it('lets a feature import another through its index, its own files and lib', async () => {
    const source =
      "import { CourseCard } from '../courses';\nimport { Faq } from './Faq';\nimport { paths } from '../../lib/paths';\nexport const x = [CourseCard, Faq, paths];\n";
    expect(await complaints('web/src/features/home/Example.tsx', source)).toEqual([]);
  });

  it('refuses a feature importing the app shell', async () => {
    const found = await complaints(
      'web/src/features/home/Example.tsx',
      "import { useAppSelector } from '../../app/store';\nexport const x = useAppSelector;\n",
    );
    expect(found).toEqual([expect.stringContaining('app shell')]);
  });

  it('refuses lib importing a feature or the app', async () => {
    const feature = await complaints('web/src/lib/components/Example.tsx', "import { useAuth } from '../../features/auth';\nexport const x = useAuth;\n");
    const app = await complaints('web/src/lib/example.ts', "import { createStore } from '../app/store';\nexport const x = createStore;\n");
    expect([...feature, ...app]).toEqual([expect.stringContaining('imports none'), expect.stringContaining('app shell')]);
  });

  it('lets the app import any feature file (the router, the store)', async () => {
    const source = "import { authReducer } from '../features/auth/auth.slice';\nexport const x = authReducer;\n";
    expect(await complaints('web/src/app/example.ts', source)).toEqual([]);
  });

  it('refuses the contract’s server bindings anywhere in the web app', async () => {
    const source = "import { api } from '@lms/contract/api';\nexport const x = api;\n";
    const found = await Promise.all(
      ['web/src/app/example.ts', 'web/src/features/home/Example.tsx', 'web/src/lib/example.ts'].map((file) => complaints(file, source)),
    );
    expect(found.flat()).toEqual([expect.stringContaining('server’s'), expect.stringContaining('server’s'), expect.stringContaining('server’s')]);
  });
});
