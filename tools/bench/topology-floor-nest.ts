import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type CustomTransportStrategy, MessagePattern, Payload, Server } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { NatsConnection } from 'nats';
import { lastValueFrom } from 'rxjs';
import { type CreationBody, FLOOR_BUS_TIMEOUT_MS, FLOOR_PATTERNS, type FloorRow, type FloorSettings, floorSubjects, openGroupInsert, type StartedRole } from './floor-parts';

/**
 * The create path's floor on the services' framework: the roles of
 * topology-floor.ts as NestJS applications, the edge a controller on
 * Fastify (as the gateway is), the relay and the store message handlers
 * behind a Nest transport on the same NATS connection (as sessions and the
 * ledger are). Still none of the services' work: no guard, hook, pipe,
 * interceptor, filter, header, span or metric of theirs, so the difference
 * from the plain floor is what the framework itself costs per request.
 */

/** The reply's bytes as the row, or the failure an empty reply stands for (the store's or the relay's). */
async function requestRow(nc: NatsConnection, subject: string, body: unknown): Promise<FloorRow> {
  const reply = await nc.request(subject, Buffer.from(JSON.stringify(body)), { timeout: FLOOR_BUS_TIMEOUT_MS });
  if (reply.data.length === 0) throw new Error(`${subject} could not store the creation`);
  return JSON.parse(Buffer.from(reply.data).toString('utf8')) as FloorRow;
}

/**
 * Nest's own minimum for request-reply: each handler's pattern under the
 * floor's namespace (floorSubjects), each message through Nest's RPC
 * pipeline, the handler's answer (or an empty reply on failure) back.
 */
class FloorTransport extends Server implements CustomTransportStrategy {
  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
  ) {
    super();
  }

  listen(callback: () => void): void {
    for (const [pattern, handler] of this.messageHandlers) {
      this.nc.subscribe(`${this.namespace}.${pattern}`, {
        callback: (error, msg) => {
          if (error) return;
          (async () => lastValueFrom(this.transformToObservable(await handler(JSON.parse(Buffer.from(msg.data).toString('utf8')), {}))))().then(
            (answer) => msg.respond(JSON.stringify(answer)),
            () => msg.respond(),
          );
        },
      });
    }
    callback();
  }

  close(): void {}

  on(): never {
    throw new Error('the floor transport emits no events');
  }

  unwrap<T>(): T {
    return this.nc as T;
  }
}

export async function startNestEdge(nc: NatsConnection, { namespace }: FloorSettings): Promise<StartedRole> {
  const subject = floorSubjects(namespace).relay;
  @Controller()
  class EdgeController {
    @Post()
    @HttpCode(201)
    create(@Body() body: unknown): Promise<FloorRow> {
      return requestRow(nc, subject, body); // a failure is Nest's 500
    }
  }
  @Module({ controllers: [EdgeController] })
  class EdgeModule {}
  const app = await NestFactory.create<NestFastifyApplication>(EdgeModule, new FastifyAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return { url: await app.getUrl(), close: () => app.close() };
}

export async function startNestRelay(nc: NatsConnection, { namespace }: FloorSettings): Promise<StartedRole> {
  const subject = floorSubjects(namespace).store;
  @Controller()
  class RelayController {
    @MessagePattern(FLOOR_PATTERNS.relay)
    create(@Payload() body: unknown): Promise<FloorRow> {
      return requestRow(nc, subject, body);
    }
  }
  @Module({ controllers: [RelayController] })
  class RelayModule {}
  const app = await NestFactory.createMicroservice(RelayModule, { strategy: new FloorTransport(nc, namespace), logger: false });
  await app.listen();
  return { close: () => app.close() };
}

export async function startNestStore(nc: NatsConnection, { namespace, databaseUrl }: FloorSettings): Promise<StartedRole> {
  const rows = await openGroupInsert(databaseUrl);
  @Controller()
  class StoreController {
    @MessagePattern(FLOOR_PATTERNS.store)
    append(@Payload() body: CreationBody): Promise<FloorRow> {
      return rows.insert(body);
    }
  }
  @Module({ controllers: [StoreController] })
  class StoreModule {}
  const app = await NestFactory.createMicroservice(StoreModule, { strategy: new FloorTransport(nc, namespace), logger: false });
  await app.listen();
  return { close: async () => (await app.close(), await rows.close()) };
}
