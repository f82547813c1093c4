// One flat config for every package: typescript-eslint's recommended rules on sources and tests, and the
// layering rule of ARCHITECTURE.md: abstractions <- engine-core <- hosts; leaf packages (probes, packs,
// senders, callbacks, transports, kits) depend on abstractions and kits only. Tests and test support may
// import anything.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const testFiles = [
  '**/*.test.ts',
  '**/test-support/**',
  '**/testing-support/**',
  '**/test-fixtures/**',
  '**/*.fixture.*',
];
const hosts = ['@corekit/web-host', '@corekit/worker-host'];
const layering = (packages, names, message) => ({
  files: packages.map((folder) => `packages/${folder}/src/**/*.ts`),
  ignores: testFiles,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: names.flatMap((name) => [name, `${name}/*`]), message }] },
    ],
  },
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // abstractions: contracts only; zod, node built-ins and its own files.
    files: ['packages/abstractions/src/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$|zod/|node:|\\.{1,2}/)',
              message: 'abstractions imports nothing but zod and node built-ins (layering rule)',
            },
          ],
        },
      ],
    },
  },
  layering(['engine-core'], hosts, 'engine-core never imports a host (layering rule)'),
  layering(
    ['!(abstractions|engine-core|web-host|worker-host|testing|package-tools)'],
    ['@corekit/engine-core', ...hosts],
    'a leaf package depends on @corekit/abstractions and kits only, never on engine-core or a host (layering rule)',
  ),
  {
    files: ['**/*.cjs', '**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
  },
);
