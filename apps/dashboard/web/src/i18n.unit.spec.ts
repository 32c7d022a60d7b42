import { describe, expect, it } from '@jest/globals';
import {
  API_KEY_TYPES,
  CHECKOUT_SESSION_STATUSES,
  DASHBOARD_ROLES,
  PAYMENT_STATUSES,
  PLATFORM_ADMIN_ROLE,
  QUARANTINE_STATUSES,
  ReviewReason,
  REFUND_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
  WebhookDeliveryStatus,
} from '@pp/contracts';
import { keyTypeLabel, MESSAGES, reasonLabel, roleLabel, statusLabel } from './i18n';
import { AUTHENTICATION_FAILURES } from './verify-payment.policy';

/** Every status a badge shows: the contracts' wire values, and the page's own (mode, key state). */
const STATUSES = [
  ...PAYMENT_STATUSES,
  ...CHECKOUT_SESSION_STATUSES,
  ...REFUND_STATUSES,
  ...QUARANTINE_STATUSES,
  ...WEBHOOK_ENDPOINT_STATUSES,
  ...Object.values(WebhookDeliveryStatus),
  'LIVE',
  'TEST',
  'ACTIVE',
  'REVOKED',
];

describe('wire values in the reader’s language', () => {
  it.each(Object.keys(MESSAGES) as (keyof typeof MESSAGES)[])('given %s, then every status, role and key type has a label of its own, not the wire value', (language) => {
    const t = MESSAGES[language];
    for (const status of STATUSES) expect([status, statusLabel(t, status)]).not.toEqual([status, status]);
    for (const role of [...DASHBOARD_ROLES, PLATFORM_ADMIN_ROLE]) expect([role, roleLabel(t, role)]).not.toEqual([role, role]);
    for (const type of API_KEY_TYPES) expect([type, keyTypeLabel(t, type)]).not.toEqual([type, type]);
  });

  it('given French, then statuses read in French', () => {
    expect(['CONFIRMED', 'REQUIRES_MANUAL_REVIEW', 'COMPLETED', 'released'].map((status) => statusLabel(MESSAGES.fr, status))).toEqual(['Confirmé', 'À vérifier', 'Terminé', 'Libéré']);
    expect(roleLabel(MESSAGES.fr, 'owner')).toBe('Propriétaire');
  });

  it('given a value with no label (one the server added since), then it shows as it is', () => {
    expect(statusLabel(MESSAGES.en, 'ON_HOLD')).toBe('ON_HOLD');
    expect(roleLabel(MESSAGES.fr, 'auditor')).toBe('auditor');
    expect(keyTypeLabel(MESSAGES.en, 'legacy')).toBe('legacy');
  });

  it.each(Object.keys(MESSAGES) as (keyof typeof MESSAGES)[])('given %s, then every review reason and authentication failure reads in words, with the header it names', (language) => {
    const t = MESSAGES[language];
    for (const reason of [...Object.values(ReviewReason), ...AUTHENTICATION_FAILURES]) expect([reason, reasonLabel(t, reason)]).not.toEqual([reason, reason]);
    expect(reasonLabel(MESSAGES.en, 'header_not_unique:from')).toBe('A header appears more than once (from)');
    expect(reasonLabel(MESSAGES.en, 'header_future:from')).toBe('header_future:from');
  });
});
