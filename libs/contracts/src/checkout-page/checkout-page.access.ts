import type { SubjectAccessMap } from '../bus-access/subject-access';
import type { CheckoutPageSubjects } from './checkout-page.subjects';

/** The payer-facing reads: the checkout app's only way in (payers never simulate: docs/PRODUCT-RULES.md §4.6). */
export const CHECKOUT_PAGE_ACCESS: SubjectAccessMap<CheckoutPageSubjects> = {
  'checkout-page.session.v1': { servedBy: 'sessions', callers: ['checkout'] },
  'checkout-page.resolve-client-secret.v1': { servedBy: 'sessions', callers: ['gateway'] },
  'identity.merchant-profile.v1': { servedBy: 'gateway', callers: ['checkout'] },
};
