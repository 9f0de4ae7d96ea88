import { AppError } from '../../src-shared/errors';

/** Awaits a call that must fail, and hands back its error value (anything else fails the test). */
export async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}
