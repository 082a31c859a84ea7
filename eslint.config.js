// Lint rules that keep each runtime in its lane: only the Electron host and the preload may import electron;
// the board and the contract import nothing of the main process; hosts reach the core only through its front door.
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

const electronPaths = noElectron['no-restricted-imports'][1].paths;
const electronPatterns = noElectron['no-restricted-imports'][1].patterns;

/** no-restricted-imports with electron refused and these patterns too (a later block replaces a rule's options, so each lane restates electron). */
const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { paths: electronPaths, patterns: [...electronPatterns, ...patterns] }],
  'no-restricted-syntax': noElectron['no-restricted-syntax'],
});

// The board runs in a browser: it talks to the core over HTTP and imports only src/shared and its own files.
const rendererLane = restrict([{
  group: ['**/main/**', '**/preload/**', '**/scripted-agent/**', '**/bench/**', '**/e2e/**'],
  message: 'src/renderer imports only src/shared and its own files; reach the core over HTTP.',
}]);

// The contract runs anywhere: zod, and its own files.
const sharedLane = restrict([{
  regex: '^(?!zod$|\\./)',
  message: 'src/shared imports only zod and its own files (./…).',
}]);

// The route contract sits one folder down: it may also reach the contract's files beside its folder, nothing above.
const sharedRoutesLane = restrict([{
  regex: '^(?!zod$|\\./|\\.\\./(?!\\.\\./))',
  message: 'src/shared imports only zod and its own files.',
}]);

// Hosts use the core through src/main/core/index.ts, so its rooms can move without them.
const frontDoorOnly = (alsoAllowed) => ({
  group: ['**/core/*', '**/core/**', '!**/core/index', ...alsoAllowed.map((door) => `!**/core/${door}`)],
  message: 'Hosts import the core only through src/main/core/index.ts (the headless entry also src/main/core/early-start.ts; tests and bench also src/main/core/testing.ts).',
});
const HOSTS = ['src/main/serve-host.ts', 'src/main/index.ts', 'src/main/shell/**', 'src/main/electron/**', 'bench/**'];
const HOST_TESTS = ['src/main/shell/**/*.test.ts', 'src/main/electron/**/*.test.ts', 'src/main/*.test.ts', 'bench/**'];

// The scripted agent is a separate program: it imports src/shared, its own files and npm packages.
const scriptedAgentLane = restrict([{
  group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/bench/**', '**/e2e/**'],
  message: 'src/scripted-agent imports only src/shared, its own files and npm packages.',
}]);

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'e2e/artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  { files: ['src/main/core/**'], rules: noElectron },
  { files: ['src/renderer/**'], rules: rendererLane },
  { files: ['src/shared/**'], rules: sharedLane },
  { files: ['src/shared/routes/**'], rules: sharedRoutesLane },
  { files: ['src/scripted-agent/**'], rules: scriptedAgentLane },
  { files: HOSTS, rules: { 'no-restricted-imports': ['error', { patterns: [frontDoorOnly([])] }] } },
  // The headless entry starts work before it loads the core's bundle, through a door that pulls in nothing else.
  { files: ['src/main/serve.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [frontDoorOnly(['early-start'])] }] } },
  { files: HOST_TESTS, rules: { 'no-restricted-imports': ['error', { patterns: [frontDoorOnly(['testing'])] }] } },
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
