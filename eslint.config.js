// Lint rules that keep each runtime in its lane: only the Electron host and the preload may import electron.
import tseslint from 'typescript-eslint';

const noElectron = {
  'no-restricted-imports': ['error', {
    paths: [{ name: 'electron', message: 'Only src/main (outside core) and src/preload may import electron; this code must run in plain Node or a browser.' }],
    patterns: [{ group: ['electron/*'], message: 'Only src/main (outside core) and src/preload may import electron.' }],
  }],
  'no-restricted-syntax': ['error', {
    selector: "CallExpression[callee.name='require'][arguments.0.value='electron']",
    message: 'Only src/main (outside core) and src/preload may require electron.',
  }],
};

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'e2e/artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['src/main/core/**', 'src/shared/**', 'src/renderer/**'], rules: noElectron },
  // The desktop shell's decisions run in plain-Node unit tests, where loading electron would try to download it:
  // Electron's types are fine there, its module is not.
  {
    files: ['src/main/shell/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'electron', allowTypeImports: true, message: 'src/main/shell is tested in plain Node: use `import type`, and put Electron calls in src/main/electron.' }],
      }],
      'no-restricted-syntax': noElectron['no-restricted-syntax'],
    },
  },
);
