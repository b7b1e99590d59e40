import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (the OS picks it; a race with another process is unlikely). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
