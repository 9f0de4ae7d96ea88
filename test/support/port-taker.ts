import { createServer, type Socket } from 'node:net';

/**
 * Another program on a loopback port: it accepts connections and answers nothing, keeping the
 * first line of every request that reaches it (what a console must never send it).
 */
export async function takePort(port: number): Promise<{ reached: string[]; close(): Promise<void> }> {
  const reached: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (d) => reached.push(d.toString('latin1').split('\r\n', 1)[0]!));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1' }, () => resolve());
  });
  return {
    reached,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
