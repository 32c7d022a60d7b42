import { Payload } from '@nestjs/microservices';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { type CheckoutSessionView, GetCheckoutSessionQuery, type ServiceHealthReply } from '@pp/contracts';
import { Handles } from './handles.decorator';

const view = {} as CheckoutSessionView;

describe('@Handles', () => {
  describe('given a method that takes the subject’s request class as @Payload()', () => {
    it('then the method is the bus handler of exactly that subject', () => {
      class GetHandler {
        @Handles('sessions.get.v1')
        get(@Payload() _query: GetCheckoutSessionQuery): Promise<CheckoutSessionView> {
          return Promise.resolve(view);
        }
      }
      expect(Reflect.getMetadata(PATTERN_METADATA, GetHandler.prototype.get)).toEqual(['sessions.get.v1']);
    });
  });

  describe('given a method that takes no request (a health answer)', () => {
    it('then it needs no @Payload()', () => {
      class HealthHandler {
        @Handles('health.sessions')
        check(): Promise<ServiceHealthReply> {
          return Promise.resolve({} as ServiceHealthReply);
        }
      }
      expect(Reflect.getMetadata(PATTERN_METADATA, HealthHandler.prototype.check)).toEqual(['health.sessions']);
    });
  });

  describe('given a request parameter without @Payload()', () => {
    it('then the class cannot be defined, since its payload would never be validated', () => {
      expect(() => {
        class UncheckedHandler {
          @Handles('sessions.get.v1')
          get(_query: GetCheckoutSessionQuery): Promise<CheckoutSessionView> {
            return Promise.resolve(view);
          }
        }
        return UncheckedHandler;
      }).toThrow('UncheckedHandler.get handles sessions.get.v1: its first parameter must be @Payload() so the request is validated');
    });
  });

  describe('given a request parameter typed with an object type instead of the request class', () => {
    it('then the class cannot be defined, since the ValidationPipe would have no class to validate against', () => {
      expect(() => {
        class ShapeHandler {
          @Handles('sessions.get.v1')
          get(@Payload() _query: { merchant_id: string; livemode: boolean; session_id: string }): Promise<CheckoutSessionView> {
            return Promise.resolve(view);
          }
        }
        return ShapeHandler;
      }).toThrow('ShapeHandler.get handles sessions.get.v1: its request parameter must be typed with the request class, which the ValidationPipe validates');
    });
  });
});
