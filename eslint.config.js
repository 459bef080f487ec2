// ESLint over the TypeScript sources: the recommended rules of ESLint and typescript-eslint,
// with Prettier owning the layout (eslint-config-prettier turns the style rules off).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/data/', 'bench/results/', 'test/artifacts/', 'tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    // tests read parsed JSON bodies whose shape the assertions check
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    rules: {
      // `_name` marks a parameter kept for its position (a callback's signature)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
