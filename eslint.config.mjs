// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The product writes YAML only through sandbox/util/yamlText.ts: `yaml`'s own `stringify` (and a `Document` made
 * from values) writes an object met twice as an anchor and aliases, and stored objects may share frozen sub-objects.
 */
const YAML_WRITER = {
  name: 'yaml',
  importNames: ['stringify', 'Document'],
  message:
    'Write YAML with yamlText (sandbox/util/yamlText.ts): it never writes anchors and aliases for an object met twice.',
};
const PRODUCT = [
  'sandbox/**/*.ts',
  'cli/**/*.ts',
  'client/**/*.ts',
  'server/**/*.ts',
  'live/**/*.ts',
  'scripts/**/*.ts',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'out/**', '.vscode-test/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [] }],
      // Prettier wraps code at 120 columns; this keeps comments there too. Strings stay whole
      // (upstream's messages are quoted exactly and are easier to grep unbroken).
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
  {
    files: PRODUCT,
    rules: { 'no-restricted-imports': ['error', { paths: [YAML_WRITER] }] },
  },
  {
    files: ['sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'sandbox/ is pure TypeScript: it never imports vscode.' }, YAML_WRITER] },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'Time flows through the injected Clock.' },
        { object: 'Math', property: 'random', message: 'Randomness is seeded: use SeededRandom.' },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
);
