import { expect } from '@playwright/test';
import { V2 } from '../../src-shared/paths';

/** A customer's line in a session, saved at the service as its channel would (answers the message id). */
export async function customerSays(baseUrl: string, token: string, sessionId: number, text: string): Promise<number> {
  const res = await fetch(`${baseUrl}${V2}/messages/save`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session: { id: sessionId }, message: text, fromUser: true }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}
