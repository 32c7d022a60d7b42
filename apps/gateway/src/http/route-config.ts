import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';
import type { FastifyContextConfig } from 'fastify';

/**
 * Adds fields to a route's Fastify config. Nest's RouteConfig sets the config whole, so of two decorators the one
 * applied last would silently drop the other's fields; who may call a route (route-access.ts) and how long its answer
 * may take (answer-deadline.decorators.ts) are declared apart, in any order.
 */
export const AddRouteConfig =
  (config: FastifyContextConfig): MethodDecorator =>
  (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const current = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as FastifyContextConfig;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...config }, handler);
  };
