import { DomainError, ErrorCode } from '@pp/contracts';

/**
 * The 404 of an id that cannot exist, in the words the service answers for an
 * unknown one (`Checkout session not found`), so a caller cannot tell the two
 * apart. Not Nest's NotFoundException: its words become `Not found`
 * (describeClientError), a service's refusal keeps its own.
 */
export const notFound = (what: string): DomainError => new DomainError(ErrorCode.NotFound, `${what} not found`);
