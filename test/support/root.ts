import { join } from 'node:path';

/** The repository's root, wherever a test file sits below `test/`. */
export const ROOT = join(import.meta.dirname, '..', '..');
