/**
 * Who calls the stand-in and how a refusal is said: the actor of a request (its user and role)
 * and ApiError, the value the server turns into the family's error answer.
 */
import type { Role } from '../src-shared/paths';
import type { Rec } from './query-engine';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errorCode: string = httpCode(status),
  ) {
    super(message);
  }
}

function httpCode(status: number): string {
  return (
    ({ 400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 409: 'CONFLICT' } as Record<number, string>)[status] ??
    'ERROR'
  );
}

export function validationError(path: string, expected: string): ApiError {
  return new ApiError(400, `Field "${path}" must be ${expected}.`, 'INVALID_FIELD');
}

export interface Actor {
  user: Rec;
  userName: string;
  role: Role;
}

const ROLE_OF_TYPE: Record<string, Role> = { ADMINISTRATOR: 'admin', SUPERVISOR: 'supervisor', AGENT: 'agent' };
export const roleOfUser = (user: Rec): Role | null => ROLE_OF_TYPE[String(user.typeUser)] ?? null;
