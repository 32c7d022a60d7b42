import 'reflect-metadata';
import { MessagePattern } from '@nestjs/microservices';
import { PARAM_ARGS_METADATA } from '@nestjs/microservices/constants';
import { RpcParamtype } from '@nestjs/microservices/enums/rpc-paramtype.enum';
import type { ReplyOf, RequestOf, Subject } from '@pp/contracts';

/** A method that can answer subject S: it accepts S's request and answers S's reply (other parameters, such as `@Ctx()`, may follow). */
export type SubjectHandler<S extends Subject> = (request: RequestOf<S>, ...rest: never[]) => ReplyOf<S> | Promise<ReplyOf<S>>;

/**
 * Marks a method as the bus handler of one subject of SubjectMap
 * (libs/contracts/src/subjects.ts). The compiler checks the method against
 * the subject: a subject that does not exist, a request parameter that does
 * not accept the subject's request or a reply of another type does not
 * compile. At start-up the transport checks that the service has exactly
 * one handler for each subject the registry gives it (served-subjects.ts).
 *
 * The request parameter must be `@Payload()` of the request class: the global
 * BusValidationPipe validates the payload against that class, and a handler
 * without it would get the raw, unchecked JSON, so such a method is refused
 * when its class is defined.
 */
export function Handles<S extends Subject>(subject: S) {
  return <H extends SubjectHandler<S>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    if (descriptor.value && descriptor.value.length > 0) assertValidatedRequest(subject, target, key);
    MessagePattern(subject)(target, key, descriptor);
  };
}

/** Types the BusValidationPipe does not validate: what an interface or a type alias compiles to, and primitives. */
const UNVALIDATED_TYPES: readonly unknown[] = [Object, String, Number, Boolean, Array];

function assertValidatedRequest(subject: string, target: object, key: string | symbol): void {
  const method = `${target.constructor.name}.${String(key)}`;
  // Parameter decorators run before method decorators, so @Payload()'s metadata is already there.
  const params: Record<string, { index: number }> = Reflect.getMetadata(PARAM_ARGS_METADATA, target.constructor, key) ?? {};
  const payload = Object.entries(params).some(([kind, param]) => kind.startsWith(`${RpcParamtype.PAYLOAD}:`) && param.index === 0);
  if (!payload) throw new Error(`${method} handles ${subject}: its first parameter must be @Payload() so the request is validated`);
  const [type] = (Reflect.getMetadata('design:paramtypes', target, key) as unknown[] | undefined) ?? [];
  if (!type || UNVALIDATED_TYPES.includes(type)) {
    throw new Error(`${method} handles ${subject}: its request parameter must be typed with the request class, which the ValidationPipe validates`);
  }
}
