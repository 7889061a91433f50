import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { layerRules } from './layers.config.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'data/**',
      '.test-data/**',
      '.scratch/**',
      'scripts/mcp-conformance/node_modules/**',
      'scripts/mcp-inspector/node_modules/**',
      'scripts/node22/node_modules/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  ...layerRules,
  {
    // Tests read JSON bodies whose shape the assertions themselves check.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
