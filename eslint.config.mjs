import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [
        { name: 'vscode', message: 'This folder is the pure core: keep VS Code APIs in src/extension.' },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules', 'out', 'dist', '.vscode-test', '.cache', 'test/fixtures', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: [] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it/test return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'suite'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // The build, bench, host and package scripts (plain Node ES modules).
    files: ['**/*.mjs'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      ...js.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The UI tests hand functions to the browser (page.evaluate): they use its globals.
    files: ['test/ui/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // Tests wait for the event or state they need, never for a time: a fixed wait fails on a
    // busy machine and slows every run. The bounded waits (test/support/wait.ts waitFor and
    // within; the UI tests' waitUntil calls waitFor) are the only places with a timer, each marked.
    files: ['test/**/*.ts', 'test/**/*.mjs'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='setTimeout']",
          message:
            'Wait for the event or state (waitFor / within / turns in test/support/wait.ts, waitUntil in the UI tests), not a time.',
        },
        {
          selector: "CallExpression[callee.property.name='waitForTimeout']",
          message: 'Wait for the element, frame or state (waitUntil, painted, locator.waitFor), not a time.',
        },
        {
          selector: 'CallExpression[callee.name=/^(sleep|delay|pause)$/]',
          message: 'Wait for the event or state, not a time.',
        },
      ],
    },
  },
  {
    files: [
      'src/api/**/*.ts',
      'src/core/**/*.ts',
      'src/emulator/**/*.ts',
      'src/common/**/*.ts',
      'src/agent/**/*.ts',
    ],
    rules: noVscode,
  },
  {
    // One bridge from a CancellationToken to an AbortSignal (it disposes its listener).
    files: ['src/extension/**/*.ts'],
    ignores: ['src/extension/shared/abort.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='onCancellationRequested']",
          message: 'Use toAbortSignal(token, work) from src/extension/shared/abort.ts.',
        },
      ],
    },
  },
  {
    // Attacker-written scan data is rendered in the webview: DOM APIs only, never HTML strings.
    files: ['src/webview/**/*.ts'],
    rules: {
      ...noVscode,
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Use textContent / DOM APIs.' },
        { property: 'outerHTML', message: 'Use textContent / DOM APIs.' },
        { property: 'insertAdjacentHTML', message: 'Use DOM APIs.' },
      ],
      'no-restricted-globals': ['error', 'eval'],
    },
  },
);
