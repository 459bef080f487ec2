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
      // `_name` marks a parameter kept for its position (a callback's signature); a rest sibling
      // is how a field is left out of a copy (`const { score, ...rest } = record`)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // the code matches ASCII ranges (\x00-\x7f) and terminal escapes (\x1b) on purpose
      'no-control-regex': 'off',
      // it flags assignments that let the collector free a value before a measurement (bench) and
      // loop initialisers the loop overwrites before reading
      'no-useless-assignment': 'off',
    },
  },
  {
    // a test's expected terminal line spells its spaces as the terminal shows them
    files: ['test/**/*.ts'],
    rules: { 'no-regex-spaces': 'off' },
  },
);
