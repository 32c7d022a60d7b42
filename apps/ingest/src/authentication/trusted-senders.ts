/** The mailboxes Interac sends e-Transfer notifications from, on each trusted signing domain. */
const INTERAC_SENDER_MAILBOXES = ['notify', 'catch'] as const;

/** notify@ and catch@ on every trusted DKIM domain, lower case. */
export const trustedSenders = (domains: readonly string[]): string[] =>
  domains.flatMap((domain) => INTERAC_SENDER_MAILBOXES.map((mailbox) => `${mailbox}@${domain.toLowerCase()}`));
