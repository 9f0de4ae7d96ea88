// ESLint: the house's code rules. Type-aware: typescript-eslint's project service reads
// tsconfig.json, so the rules see the same types `npm run typecheck` does, in .svelte files too.
import js from '@eslint/js';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { builtinRules } from 'eslint/use-at-your-own-risk';

// ─── One rule per concern ─────────────────────────────────────────────────────────────────────
// What the console does in one place is written there and nowhere else: each raw form below is
// refused everywhere but in the one module that holds it, and the message names that module.
// Each concern is a rule of its own (ESLint's no-restricted-syntax or no-restricted-properties
// under the concern's name, `one-place/<concern>`): one rule's options are replaced, not merged,
// by a later block, so concerns with different files and exemptions could not share one.
const restrictedSyntax = builtinRules.get('no-restricted-syntax');
/** Every TypeScript and Svelte source of the project (the plain .mjs scripts run before it is installed: they cannot import it). */
const ALL_SOURCES = ['src-*/**/*.{ts,svelte}', 'test/**/*.ts', 'bench/**/*.ts'];
const ONE_PLACE = [
  {
    concern: 'error-text',
    rule: restrictedSyntax,
    files: ALL_SOURCES,
    ignores: ['src-shared/error-text.ts'],
    options: [
      {
        selector:
          "ConditionalExpression[test.operator='instanceof'][test.right.name='Error'][consequent.property.name='message'][alternate.callee.name='String']",
        message: 'Use errorText(e) from src-shared/error-text.ts: the one reading of a caught value as words.',
      },
    ],
  },
  {
    concern: 'clock',
    rule: restrictedSyntax,
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/clock.ts'],
    options: [
      {
        selector: "MemberExpression[object.name='Date'][property.name='now']",
        message: 'Read the time from the clock the platform passes in (ctx.clock, else systemClock of src-main/clock.ts), not Date.now.',
      },
      {
        selector: "NewExpression[callee.name='Date'][arguments.length=0]",
        message: 'Read the time from the clock the platform passes in (new Date(ctx.clock.now()); src-main/clock.ts), not new Date().',
      },
    ],
  },
  {
    concern: 'backoff',
    rule: restrictedSyntax,
    files: ['src-*/**/*.{ts,svelte}'],
    ignores: ['src-shared/error-kinds.ts'],
    options: [
      ...[
        "BinaryExpression[operator='**'][left.value=2][right.type!='Literal']",
        "CallExpression[callee.object.name='Math'][callee.property.name='pow'][arguments.0.value=2]",
        "BinaryExpression[operator='*'][right.value=2][left.name=/(Ms|[dD]elay|[wW]ait)$/]",
      ].map((selector) => ({
        selector,
        message: 'Wait with the one backoff: backoffDelay (by failures) or doubledDelay (from the last wait) of src-shared/error-kinds.ts.',
      })),
    ],
  },
  {
    concern: 'folders',
    rule: restrictedSyntax,
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/folders.ts'],
    options: [
      {
        selector: "CallExpression[callee.name='rmSync'] Property[key.name='recursive'][value.value=true]",
        message: 'Remove a folder with removeFolder of src-main/folders.ts: nothing written late brings it back.',
      },
    ],
  },
  {
    concern: 'eqnum',
    rule: restrictedSyntax,
    files: ['src-main/**/*.ts', 'src-renderer/**/*.{ts,svelte}'],
    ignores: [],
    options: [
      {
        selector: "ObjectExpression > Property[key.name='operator'][value.value=/^N?EQNUM$/]",
        message: 'Build a numeric condition with eqNum(key, n) or query().where(key).eqNum(n) of src-shared/query-builder.ts.',
      },
    ],
  },
  {
    concern: 'documents',
    rule: restrictedSyntax,
    files: ['src-*/**/*.{ts,svelte}'],
    ignores: ['src-shared/documents.ts'],
    options: [
      ...[
        ':matches(FunctionDeclaration, VariableDeclarator)[id.name=/^(isValidCpf|isValidCnpj|findDocuments)$/]',
        // A CPF's or CNPJ's digit groups (3.3.3-2 or 2.3.3/4-2) in a pattern, as a regex literal or a RegExp's source.
        'Literal[regex.pattern=/d[{]3[}].{0,4}d[{]3[}].{0,6}(d[{]3[}]|d[{]4[}])/]',
        'Literal[value=/d[{]3[}].{0,4}d[{]3[}].{0,6}(d[{]3[}]|d[{]4[}])/]',
      ].map((selector) => ({
        selector,
        message: 'Find and check CPF and CNPJ with src-shared/documents.ts (findDocuments, isValidCpf, isValidCnpj): the one finder.',
      })),
    ],
  },
  {
    concern: 'template',
    rule: restrictedSyntax,
    files: ['src-*/**/*.{ts,svelte}'],
    // The renderer's message formatter fills its own {name}s while the messages move to catalogs.
    ignores: ['src-shared/template.ts', 'src-renderer/src/lib/i18n.svelte.ts'],
    options: [
      ...[
        'CallExpression[callee.property.name=/^(replace|replaceAll|match|matchAll)$/][arguments.0.regex.pattern=/[\\\\][{]/]',
        'CallExpression[callee.property.name=/^(replace|replaceAll)$/][arguments.0.value=/^[{].*[}]$/]',
      ].map((selector) => ({
        selector,
        message:
          'Fill placeholders with src-shared/template.ts (fillTemplate and templateParameterCount for {{n}}, fillPlaceholders for {name}): the one template filler.',
      })),
    ],
  },
  {
    concern: 'date-format',
    rule: restrictedSyntax,
    files: ['src-renderer/**/*.{ts,svelte}'],
    // i18n keeps the formatters (one per language and options) that format.ts writes through.
    ignores: ['src-renderer/src/lib/format.ts', 'src-renderer/src/lib/digits.ts', 'src-renderer/src/lib/i18n.svelte.ts'],
    options: [
      ...[
        'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]',
        "NewExpression[callee.object.name='Intl'][callee.property.name='DateTimeFormat']",
        "CallExpression[callee.property.name='padStart'][arguments.0.value=2]",
      ].map((selector) => ({
        selector,
        message:
          'Write times, dates and durations with src-renderer/src/lib/format.ts (clockTime, stampOf, compactDuration, …): the one formatter of the page.',
      })),
    ],
  },
];
const onePlacePlugin = { rules: Object.fromEntries(ONE_PLACE.map((c) => [c.concern, c.rule])) };
const onePlaceBlocks = ONE_PLACE.map((c) => ({
  files: c.files,
  ignores: c.ignores,
  plugins: { 'one-place': onePlacePlugin },
  rules: { [`one-place/${c.concern}`]: ['error', ...c.options] },
}));
// ─── end of one rule per concern (its blocks are the config's last entries) ──────────────────

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'test-results/', 'playwright-report/', 'bench/results/', 'resources/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  svelte.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        projectService: {
          // The plain JavaScript programs tsconfig.json does not include (they run before any
          // TypeScript tooling is installed, or load it): checked with default options.
          allowDefaultProject: ['*.js', '.*.mjs', 'scripts/*.mjs', 'bench/*.mjs', 'src-standin/*.mjs'],
        },
        tsconfigRootDir: import.meta.dirname,
        extraFileExtensions: ['.svelte'],
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its rejection; one handed where a void callback is
      // expected (an event handler, a timer) does too. Fire-and-forget is spelled `void`.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch over a union names every member or says, with a default, what the rest do: a
      // new status or kind is then a list of places to decide, not a silent fall-through.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // One private-member style: ECMAScript `#` members, private at run time too. (A private
      // constructor, for a class built only by its static factory, has no `#` form.)
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ':matches(PropertyDefinition, MethodDefinition[kind!="constructor"], AccessorProperty, TSParameterProperty)[accessibility="private"]',
          message: 'Use an ECMAScript private member (#name), not the TypeScript `private` keyword.',
        },
        {
          // A store's action run from an effect makes the effect follow what the action reads,
          // and re-run when the action writes it (a failed load retried without end).
          selector: "CallExpression[callee.name='$effect'] UnaryExpression[operator='void'] > CallExpression",
          message:
            'Run an action from onChange (src-renderer/src/lib/effects.svelte.ts), not from $effect: only what it watches makes it run again.',
        },
      ],
      // An async function without await is how a promise-returning interface is implemented
      // so that a throw becomes a rejection: removing `async` would change what callers see.
      '@typescript-eslint/require-await': 'off',
      // The stores keep plain Map/Set on purpose: version counters or a $state.raw value
      // replaced whole say when they changed (a SvelteMap per entry of 100,000 sessions costs
      // a signal each).
      'svelte/prefer-svelte-reactivity': 'off',
    },
  },
  {
    // Plain JavaScript has no annotations: every JSON.parse, workerData or spawn result is `any`.
    files: ['**/*.{js,mjs,cjs}'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The console's start: an ES import of node:http(s) builds the module's whole export list,
    // and its lazy exports load Node's bundled fetch client (about 20 ms a thread).
    files: ['src-main/**', 'src-standin/**', 'src-shared/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['node:http', 'http', 'node:https', 'https'].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'Take createServer from src-shared/node-http.ts (process.getBuiltinModule); import only types from here.',
          })),
        },
      ],
    },
  },
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Small units: a function does one thing and a file holds one concern. Past these sizes a
    // unit is split (a route table, small builders, a lookup table), never exempted.
    files: ['{src-main,src-shared,src-standin,src-renderer}/**/*.{ts,svelte}'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      'max-lines': ['error', { max: 450, skipBlankLines: true, skipComments: true }],
      complexity: ['error', 20],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser } },
  },
  // One rule per concern (defined above).
  ...onePlaceBlocks,
);
