// The house's import rules (DESIGN.md §3), checked by `npm run lint` (depcruise).
import { builtinModules } from 'node:module';

/** Node's built-in modules, with or without the `node:` prefix (`fs`, `node:fs`, `fs/promises`). */
const NODE_BUILTIN = `^(node:)?(${builtinModules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`;
/** Electron, and electron-store (which needs Electron to load), resolved (node_modules may be a link) or not. */
const ELECTRON = '(^|/)node_modules/electron(-store)?/|^electron(-store)?(/|$)';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'renderer-not-main',
      comment: 'The renderer never talks to the main process but through the bridge: it imports nothing from src-main.',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: { path: '^src-main/' },
    },
    {
      name: 'renderer-not-standin',
      comment: 'The renderer imports nothing from the stand-in: it is a separate program, reached over HTTP by the main process.',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: { path: '^src-standin/' },
    },
    {
      name: 'renderer-no-node',
      comment:
        'The renderer runs in a sandboxed page: no Node built-in and no Electron, directly or through a shared module ' +
        '(src-shared/webhook-signature.ts is for the main process and the stand-in only).',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: { reachable: true, path: [NODE_BUILTIN, ELECTRON] },
    },
    {
      name: 'features-not-standin',
      comment:
        "The console's features, service client, sync, outbox and webhooks work against any server: they never import the " +
        'stand-in, not even its types, nor the demo wiring that starts it (src-main/demo-standin.ts): the root passes ' +
        "the demo's launcher in.",
      severity: 'error',
      from: { path: '^src-main/(features|service|sync|outbox|webhooks)/' },
      to: { path: ['^src-standin/', '^src-main/demo-standin\\.ts$'] },
    },
    {
      name: 'renderer-schemas-types-only',
      comment:
        "The renderer takes only types from the bridge's channel map and the service's schemas: their values are zod " +
        'schemas, which the first view would load (about 45 kB gzipped). A constant both sides need lives in a plain ' +
        'module of src-shared.',
      severity: 'error',
      from: { path: '^src-renderer/' },
      to: { path: '^src-shared/(bridge|schemas)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'features-through-entry',
      comment:
        "A renderer feature reaches another only through that feature's public entry (its index.ts), or not at all: " +
        "what two features share lives in src-renderer/src/lib. Another feature's words are its namespace of the " +
        "catalogs, asked for where they are used (i18n.register('history')), not imported from its strings.ts.",
      severity: 'error',
      from: { path: '^src-renderer/src/features/([^/]+)/' },
      to: {
        path: '^src-renderer/src/features/[^/]+/',
        pathNot: ['^src-renderer/src/features/$1/', '^src-renderer/src/features/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'standin-separate',
      comment: 'The stand-in is a separate program: it borrows no console code (src-shared, the contract, is not console code).',
      severity: 'error',
      from: { path: '^src-standin/' },
      to: { path: '^src-(main|renderer)/' },
    },
    {
      name: 'views-not-bridge',
      comment: 'Components render and dispatch; the stores call the bridge.',
      severity: 'error',
      from: { path: '\\.svelte$' },
      to: { path: '^src-renderer/src/lib/bridge\\.ts$' },
    },
    {
      name: 'shared-self-contained',
      comment: "src-shared is the contract both sides speak: it imports nothing of the project's outside it.",
      severity: 'error',
      from: { path: '^src-shared/' },
      to: { path: '^(src-main|src-renderer|src-standin|test|bench|scripts)/' },
    },
    {
      name: 'main-not-renderer',
      comment: 'The main process does not reach into the renderer; what both need lives in src-shared.',
      severity: 'error',
      from: { path: '^src-main/' },
      to: { path: '^src-renderer/' },
    },
    {
      name: 'electron-only-in-shell',
      comment:
        'Only the Electron shell (src-main/index.ts) and the preload import Electron (electron-store needs it too); ' +
        'everything else receives what it needs from Electron as parameters, so it runs and is tested in plain Node.',
      severity: 'error',
      from: { path: '^src-', pathNot: '^src-main/(index|preload)\\.ts$' },
      to: { path: ELECTRON },
    },
    {
      name: 'web-tests-own-readers',
      comment:
        "Web tests compute what the page should show from the service's records on their own (test/support/records.ts), " +
        "never with the product's readers of those records (src-shared/concepts.ts and scalars.ts: idOf, authorOf, personOf...; " +
        'src-shared/note-ref.ts: splitRef): a test that reads with the code it checks cannot see that code go wrong.',
      severity: 'error',
      from: { path: '^test/(web/|support/(web|records)\\.ts$)' },
      to: { path: '^src-shared/(concepts|scalars|note-ref)\\.ts$' },
    },
    {
      name: 'no-circular',
      comment:
        'A cycle makes the load order matter and the parts impossible to understand (or test) alone. A component that ' +
        'renders itself (a tree of nested conditions) imports itself: that is recursion, not a cycle between parts. ' +
        'Type-only imports count too: a type named across a loop still ties the parts together (one cannot be read, ' +
        'moved or tested without the other), even though the build erases it.',
      severity: 'error',
      from: { path: '(.+)' },
      to: { circular: true, pathNot: '^$1$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a feature that imports the stand-in's type depends on the stand-in.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.svelte', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
