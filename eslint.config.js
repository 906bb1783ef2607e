import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/*
 * The layers of the service (docs/architecture.md draws them). Each entry names a folder or file under api/
 * and what it must NOT import; a wrong-way import fails `npm run lint`.
 *
 *   domain (pure) <- schemas <- store <- events (outbox) <- services <- http / console / jobs <- api/index.ts <- app
 *
 * The shared modules at api/'s root (context, config, logger, secret box, admin token) are reachable from
 * every layer above the domain; they import nothing above the store.
 */
const SHARED = [
  './api/context.ts',
  './api/config.ts',
  './api/logger.ts',
  './api/secret-box.ts',
  './api/admin-token.ts',
];
const ENTRY = './api/index.ts';
const above = {
  domain: [
    './api/store',
    './api/outbox',
    './api/services',
    './api/http',
    './api/jobs',
    './api/console',
    ...SHARED,
  ],
  schemas: [
    './api/store',
    './api/outbox',
    './api/services',
    './api/http',
    './api/jobs',
    './api/console',
    ...SHARED,
  ],
  store: ['./api/outbox', './api/services', './api/http', './api/jobs', './api/console'],
  outbox: ['./api/services', './api/http', './api/jobs', './api/console'],
  services: ['./api/http', './api/jobs', './api/console'],
  http: ['./api/jobs', './api/console'],
  jobs: ['./api/http', './api/console'],
  // The console's pages call the services, like the API's routes; never the store or the API's http code.
  console: ['./api/store', './api/outbox', './api/http', './api/jobs'],
  shared: ['./api/outbox', './api/services', './api/http', './api/jobs', './api/console'],
};
const layerZones = [
  ...Object.entries(above).map(([layer, from]) => ({
    target: layer === 'shared' ? SHARED : `./api/${layer}`,
    from: [...from, ENTRY, './app', './server', './client', './action'],
    message: `the ${layer} layer must not import from a layer above it (docs/architecture.md).`,
  })),
  {
    // The App reaches the service through its entry point only (and may reuse pure domain code).
    target: './app',
    from: './api',
    except: ['./index.ts', './domain'],
    message: 'the App imports the service through api/index.ts only (docs/architecture.md).',
  },
  {
    target: './app',
    from: './server',
    message: 'the process host (server/) wires the App; the App never imports it (docs/architecture.md).',
  },
  {
    // The process host starts the service and the App, through the service's entry point.
    target: './server',
    from: './api',
    except: ['./index.ts'],
    message: 'the process host imports the service through api/index.ts only (docs/architecture.md).',
  },
  {
    // The kernel (core/) is what the service, the App, the Action, the CLI and the scanner share: it imports
    // nothing else of the repository.
    target: './core',
    from: [
      './api',
      './app',
      './server',
      './client',
      './action',
      './scanner',
      './cli',
      './scripts',
      './bench',
      './test',
    ],
    message: 'the kernel (core/) imports nothing outside core/ (docs/architecture.md).',
  },
  {
    // What the CLI and the Action both send lives in client/ or the kernel.
    target: './cli',
    from: './action',
    message:
      'the CLI imports no module of the Action: what both need lives in client/ or core/ (docs/architecture.md).',
  },
  {
    // The HTTP client is shared by the Action and the CLI; it knows neither of them.
    target: './client',
    from: ['./action', './cli', './scanner', './app', './server'],
    message: 'the API client (client/) is imported by the Action and the CLI, never the other way.',
  },
];

/*
 * Files that still import the wrong way today, with the import each may keep until its owner moves it.
 * Shrink this list; never grow it.
 */
const LAYER_EXCEPTIONS = {};

function zonesWithout(allowed) {
  return layerZones.map((z) => ({ ...z, from: [z.from].flat().filter((f) => f !== allowed) }));
}

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**', 'build/**', 'packages/*/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // Type-aware rules read the TypeScript program of tsconfig.json.
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  {
    plugins: { 'import-x': importX },
    settings: {
      // Resolves the '.js' specifiers of NodeNext to the '.ts' files beside them, and parses those files
      // (no-cycle follows the imports of each imported file).
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A cycle works only while every use sits inside a function; none is allowed.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: [
      'core/**/*.ts',
      'api/**/*.ts',
      'app/**/*.ts',
      'server/**/*.ts',
      'client/**/*.ts',
      'action/**/*.ts',
      'scanner/**/*.ts',
      'cli/**/*.ts',
    ],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // 300 lines a file, 80 a function, with no list of exceptions: what grows past them is cut at its seams.
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  ...Object.entries(LAYER_EXCEPTIONS).map(([file, allowed]) => ({
    files: [file],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: zonesWithout(allowed) }] },
  })),
  {
    // Generated reference data (see the NOTICE beside it) is long by nature.
    files: ['api/domain/catalog/*.data.ts', 'core/catalog/*.data.ts'],
    rules: { 'max-lines': 'off' },
  },
  {
    // Pure domain code reaches no I/O library and names no wire schema, not even its types: the types the
    // domain reads live in the domain, and the schemas are checked against them.
    files: ['core/**/*.ts', 'api/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/schemas/**'], message: 'the domain names no wire schema (docs/architecture.md).' },
          ],
          paths: ['knex', 'express'],
        },
      ],
    },
  },
  {
    // The Action, the CLI, the scanner and the client are bundled on their own: of the service they import
    // types only; what they share with it at run time is the kernel (core/).
    files: ['action/**/*.ts', 'client/**/*.ts', 'scanner/**/*.ts', 'cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/**'],
              message: 'of the service, only types; shared code lives in core/ (docs/architecture.md).',
              allowTypeImports: true,
            },
            { group: ['**/app/**'], message: 'the Action bundles no App code.' },
          ],
        },
      ],
    },
  },
);
