import { test, expect } from '@playwright/test';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startStandin } from '../../../src-standin/index';
import { standinClient } from '../../../src-standin/test-client';

type Rec = Record<string, unknown>;

/** A provider's view of a public address: serves one file at one path, once, and counts the reads. */
async function oneFileServer(
  path: string,
  bytes: Buffer,
  type: string,
): Promise<{ origin: string; reads: () => number; close(): Promise<void> }> {
  let reads = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== path || reads > 0) {
      res.writeHead(404).end();
      return;
    }
    reads++;
    res.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length) }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reads: () => reads,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test("an attendant's file message is fetched from its URL as a provider does: size and hash kept; an unreadable URL marks the message failed", async () => {
  const sb = await startStandin({ port: 0, sessions: 20 });
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(40_000, 0x41), Buffer.from('\n%%EOF\n')]);
  const files = await oneFileServer('/files/tok/boleto.pdf', pdf, 'application/pdf');
  try {
    const agent = standinClient(sb.baseUrl, sb.tokens.agent);
    const admin = standinClient(sb.baseUrl, sb.tokens.admin);
    const sessions = (
      await agent.v2('/user-session', {
        conditions: [
          { key: 'status', operator: 'EQ', value: 'OPEN' },
          { key: 'lastAgent', operator: 'EQ', value: sb.demoAgent.userName, logic: 'AND' },
        ],
        sort: true,
        page: 0,
        size: 1,
      })
    ).json<{ results: Rec[] }>().results;
    const sessionId = sessions[0]!.id as number;
    const fetches = async () => (await admin.get('/__standin/media-fetches')).json<{ fetches: Rec[] }>().fetches;
    const messageOf = async (id: number) =>
      (
        await agent.v2('/messages', { conditions: [{ key: 'id', operator: 'EQNUM', value: String(id) }], sort: false, page: 0, size: 1 })
      ).json<{ results: Rec[] }>().results[0]!;

    // The file: saved with its URL and type, then read once by the stand-in.
    const saved = await agent.v2('/messages/save', {
      session: { id: sessionId },
      message: `${files.origin}/files/tok/boleto.pdf`,
      contentType: 'application/pdf',
      caption: 'Segue o boleto',
      fromUser: false,
    });
    expect(saved.status).toBe(201);
    const id = saved.json<Rec>().id as number;
    await expect.poll(async () => (await fetches()).find((f) => f.messageId === id)?.state).toBe('stored');
    expect((await fetches()).find((f) => f.messageId === id)).toMatchObject({
      sessionId,
      contentType: 'application/pdf',
      receivedType: 'application/pdf',
      size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      error: null,
    });
    expect(files.reads()).toBe(1);
    expect(await messageOf(id)).toMatchObject({ errorConversation: false, caption: 'Segue o boleto', contentType: 'application/pdf' });

    // The same URL again (its loan is over: 404): the message is marked not delivered, as the interface allows.
    const late = (
      await agent.v2('/messages/save', {
        session: { id: sessionId },
        message: `${files.origin}/files/tok/boleto.pdf`,
        contentType: 'application/pdf',
        fromUser: false,
      })
    ).json<Rec>().id as number;
    await expect.poll(async () => (await fetches()).find((f) => f.messageId === late)?.state).toBe('failed');
    expect(String((await fetches()).find((f) => f.messageId === late)?.error)).toContain('HTTP 404');
    expect(await messageOf(late)).toMatchObject({ errorConversation: true });

    // A text reply, or a customer's message, is never fetched.
    await agent.v2('/messages/save', {
      session: { id: sessionId },
      message: 'https://example.invalid/a.pdf',
      contentType: 'text',
      fromUser: false,
    });
    expect((await fetches()).length).toBe(2);
    // Only an administrator sees what the stand-in fetched.
    expect((await agent.get('/__standin/media-fetches')).status).toBe(403);
  } finally {
    await files.close();
    await sb.close();
  }
});
