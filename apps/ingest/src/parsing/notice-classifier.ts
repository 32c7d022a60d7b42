import type { NoticeKind, NoticeLanguage } from './notice.types';
import { PARSE_LIMITS } from './parse-limits';

export interface Classification {
  kind: NoticeKind;
  language: NoticeLanguage | null;
  /** The amount as written in the subject, when the subject has one. */
  subjectAmount: string | null;
  /** The payer named in the subject, when it names one. */
  subjectSender: string | null;
}

const UNKNOWN: Classification = { kind: 'unknown', language: null, subjectAmount: null, subjectSender: null };

const EN = String.raw`INTERAC e[-\u2010\u2011]?Transfer ?:`;
const FR = String.raw`Virement INTERAC ?:`;

interface SubjectPattern {
  kind: NoticeKind;
  language: NoticeLanguage;
  pattern: RegExp;
}

/*
 * Whole-subject patterns, anchored at both ends so that words inside the payer's
 * name ("CANCELLED CORP", "Reminder Inc") never change the kind. Reminders are
 * tried first: their subject repeats the "sent you money" wording.
 *
 * Cost: anchored at the start, each pattern is tried at one position only. A
 * lazy amount followed by a greedy name backtracks once per " from " / " de "
 * in the subject, so a pattern costs at most (occurrences x length) steps;
 * classifySubject refuses subjects longer than PARSE_LIMITS.subjectChars,
 * which bounds that to well under a millisecond.
 */
const SUBJECTS: SubjectPattern[] = [
  { kind: 'reminder', language: 'en', pattern: new RegExp(String.raw`^(?:${EN} )?Reminder ?:`, 'i') },
  { kind: 'reminder', language: 'fr', pattern: new RegExp(String.raw`^(?:${FR} )?Rappel ?:`, 'i') },
  {
    kind: 'deposit', language: 'en',
    pattern: new RegExp(String.raw`^${EN} You(?:'|\u2019| ha)ve received (?<amount>.+?) from (?<sender>.+) and it has been automatically deposited\.?$`, 'i'),
  },
  {
    kind: 'deposit', language: 'en',
    pattern: new RegExp(String.raw`^${EN} A money transfer from (?<sender>.+) has been automatically deposited\.?$`, 'i'),
  },
  {
    kind: 'deposit', language: 'fr',
    pattern: new RegExp(String.raw`^${FR} Vous avez reçu (?<amount>.+?) de (?<sender>.+) et ce montant a été déposé automatiquement\.?$`, 'i'),
  },
  {
    kind: 'deposit', language: 'fr',
    pattern: new RegExp(String.raw`^${FR} Un virement de fonds de (?<sender>.+) a été déposé automatiquement\.?$`, 'i'),
  },
  { kind: 'not_deposited', language: 'en', pattern: new RegExp(String.raw`^${EN} (?<sender>.+) sent you money\.?$`, 'i') },
  { kind: 'not_deposited', language: 'fr', pattern: new RegExp(String.raw`^${FR} (?<sender>.+) vous a envoyé de l['\u2019]argent\.?$`, 'i') },
  { kind: 'cancelled', language: 'en', pattern: new RegExp(String.raw`^${EN} .+ (?:was|has been) cancell?ed\.?$`, 'i') },
  { kind: 'cancelled', language: 'fr', pattern: new RegExp(String.raw`^${FR} .+ a été annulée?\.?$`, 'i') },
  { kind: 'expired', language: 'en', pattern: new RegExp(String.raw`^${EN} .+ (?:has )?expired\.?$`, 'i') },
  { kind: 'expired', language: 'fr', pattern: new RegExp(String.raw`^${FR} .+ a expiré\.?$`, 'i') },
  { kind: 'declined', language: 'en', pattern: new RegExp(String.raw`^${EN} .+ (?:was|has been) declined\.?$`, 'i') },
  { kind: 'declined', language: 'fr', pattern: new RegExp(String.raw`^${FR} .+ a été refusée?\.?$`, 'i') },
  // Notices about the merchant's own requests and transfers: they may name a memo and an amount, and no money came in.
  { kind: 'declined', language: 'en', pattern: new RegExp(String.raw`^${EN} .+ (?:has )?declined your (?:money request|request for money|money transfer)\.?$`, 'i') },
  { kind: 'declined', language: 'fr', pattern: new RegExp(String.raw`^${FR} .+ a refusé votre (?:demande|virement).*$`, 'i') },
  { kind: 'cancelled', language: 'en', pattern: new RegExp(String.raw`^${EN} .+ (?:has )?cancell?ed (?:the|a|your|their) money (?:transfer|request)\.?$`, 'i') },
  { kind: 'cancelled', language: 'fr', pattern: new RegExp(String.raw`^${FR} .+ a annulé (?:le|la|votre|sa) (?:virement|demande).*$`, 'i') },
  {
    kind: 'money_request', language: 'en',
    pattern: new RegExp(String.raw`^${EN} .+ (?:has )?(?:sent you a (?:money request|request for money)|requested money from you|is requesting money from you)\.?$`, 'i'),
  },
  { kind: 'money_request', language: 'fr', pattern: new RegExp(String.raw`^${FR} .+ vous (?:a envoyé une demande (?:de fonds|d['\u2019]argent)|demande (?:des fonds|de l['\u2019]argent))\.?$`, 'i') },
  { kind: 'outgoing', language: 'en', pattern: new RegExp(String.raw`^${EN} (?:Your|The) money transfer to .+ (?:was|has been) (?:deposited|accepted)\.?$`, 'i') },
  { kind: 'outgoing', language: 'fr', pattern: new RegExp(String.raw`^${FR} Votre virement (?:de fonds )?(?:à|a|destiné à) .+ a été (?:déposé|accepté)\.?$`, 'i') },
];

/**
 * What a forwarding mail client or a tagging mail gateway puts in front of a
 * subject ("Fwd: ", "FW: ", "TR: ", "WG: ", "EXTERNAL: ", "[EXTERNAL] "), any
 * number of times, or behind it (" [EXTERNAL]"). A notice so marked is no
 * longer Interac's signed message, so it is never authenticated: read through
 * the marks it goes to review with its evidence instead of being dropped as no
 * notice at all. Linear: each round starts with a letter or a bracket and
 * consumes at least three characters, and a tag is at most 40.
 */
const FORWARDING_MARKS = /^(?:(?:fwd?|tr|wg|aw|external) ?: ?|\[[^\]]{1,40}\] ?)+/i;

/** The subject without the gateway tags behind it (" [EXTERNAL]"), each at most 40 characters; taken off from the end, in one pass. */
function withoutTrailingTags(subject: string): string {
  let end = subject.length;
  while (subject[end - 1] === ']') {
    const open = subject.lastIndexOf('[', end - 1);
    if (open < 0 || end - open - 2 < 1 || end - open - 2 > 40 || subject.slice(open + 1, end - 1).includes(']')) break;
    end = subject[open - 1] === ' ' ? open - 1 : open;
  }
  return subject.slice(0, end);
}

/** What the subject (already whitespace-flattened) says the notice is. */
export function classifySubject(flatSubject: string): Classification {
  if (flatSubject.length > PARSE_LIMITS.subjectChars) return UNKNOWN;
  const subject = withoutTrailingTags(flatSubject.replace(FORWARDING_MARKS, ''));
  for (const { kind, language, pattern } of SUBJECTS) {
    const match = pattern.exec(subject);
    if (match) {
      return {
        kind,
        language,
        subjectAmount: match.groups?.amount ?? null,
        subjectSender: match.groups?.sender?.trim() || null,
      };
    }
  }
  return UNKNOWN;
}

// Positive wording only: a reject keyword once matched a footer and refused every real deposit. Each phrase counts
// unless its own negation comes right before it ("could not be automatically deposited"); a footer saying so beside the
// real phrase leaves that one to count.
const BODY_DEPOSITED =
  /(?<!not (?:be )?)automatically deposited|funds deposited|(?<!pas (?:pu )?(?:être )?)déposée?s? automatiquement|fonds ont été déposés/i;

/** Whether the body (whitespace-flattened) also says the money was deposited. */
export const bodySaysDeposited = (body: string): boolean => BODY_DEPOSITED.test(body);
