// The benchmark's reference servers, each in its own process on 127.0.0.1 (a free port, printed as
// `listening <port>` on stdout), stopped by the benchmark:
//   node bench/ceilings.mjs http <payload.json>   bare Node `http` answering every GET with the payload
//   node bench/ceilings.mjs nest <payload.json>   NestJS on Express, one route returning the payload
//                                                 (parsed once; Nest serializes it on each request)
//   node bench/ceilings.mjs ws                    a raw `ws` server: POST /send broadcasts the body's
//                                                 frames to every socket, as Termpaste's chat does
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [kind, payloadFile] = process.argv.slice(2);

function listening(server) {
  server.listen(0, '127.0.0.1', () => console.log(`listening ${server.address().port}`));
}

if (kind === 'http') {
  const body = readFileSync(payloadFile);
  listening(
    http.createServer((req, res) => {
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': body.length,
      });
      res.end(body);
    }),
  );
} else if (kind === 'nest') {
  const payload = JSON.parse(readFileSync(payloadFile, 'utf8'));
  const { Controller, Get, Module } = await import('@nestjs/common');
  const { NestFactory } = await import('@nestjs/core');
  class StaticController {
    recent() {
      return payload;
    }
  }
  // Decorators applied by hand: this file is plain JavaScript.
  Controller('api')(StaticController);
  Get('threads/recent')(
    StaticController.prototype,
    'recent',
    Object.getOwnPropertyDescriptor(StaticController.prototype, 'recent'),
  );
  class StaticModule {}
  Module({ controllers: [StaticController] })(StaticModule);
  const app = await NestFactory.create(StaticModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  console.log(`listening ${app.getHttpServer().address().port}`);
} else if (kind === 'ws') {
  const { WebSocketServer } = await import('ws');
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const frames = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const frame of frames) {
        const text = JSON.stringify(frame);
        for (const socket of wss.clients) if (socket.readyState === socket.OPEN) socket.send(text);
      }
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  const wss = new WebSocketServer({ server, path: '/ws/chat' });
  listening(server);
} else {
  console.error('usage: node bench/ceilings.mjs http|nest <payload.json> | ws');
  process.exit(2);
}
