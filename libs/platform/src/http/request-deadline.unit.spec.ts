import { connect } from 'node:net';
import Fastify from 'fastify';
import { limitRequestBodyTime } from './request-deadline';

describe('limitRequestBodyTime: a body that never finishes arriving', () => {
  it('given a request refused before its body was read (a wrong key: 401), when the rest of the body never comes, then its connection is closed once the limit has passed', async () => {
    const app = Fastify();
    limitRequestBodyTime(app, 200);
    app.addHook('onRequest', async (_request, reply) => reply.code(401).send({ error: 'Invalid API key' }));
    app.post('/v1/things', async () => ({}));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('not listening');
      const socket = connect({ host: '127.0.0.1', port: address.port });
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
      const sent = Date.now();
      socket.write('POST /v1/things HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
      const closedAt = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 3000))]);
      socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      expect(closedAt).not.toBe(-1);
      expect(closedAt - sent).toBeGreaterThanOrEqual(150);
    } finally {
      await app.close();
    }
  });
});
