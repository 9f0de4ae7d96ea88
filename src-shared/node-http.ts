/**
 * Node's HTTP server, for the main process and the stand-in (never the renderer).
 *
 * Taken from `process.getBuiltinModule`, not imported: an ES import of `node:http` makes Node
 * build the module's whole export list at once, and reading its lazy exports (WebSocket,
 * CloseEvent, MessageEvent) loads Node's bundled fetch client: about 20 ms of CPU on each thread
 * that starts a server, spent before the console's first answer. Types are imported as usual.
 */
export const { createServer } = process.getBuiltinModule('node:http');
