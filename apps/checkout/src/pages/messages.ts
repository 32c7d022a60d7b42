import type { PayerLocale } from '@pp/kernel';

/**
 * Every text of the payer pages, in English and French. Placeholders are filled by the templates (and escaped there).
 * The expired texts never say that nothing was paid, unqualified: a transfer sent just before expiry arrives after
 * it (and goes to manual review), and a payer told otherwise would pay twice.
 */
export interface Messages {
  title: string;
  testBanner: string;
  payTo: (merchant: string) => string;
  amount: string;
  memoLabel: string;
  memoHelp: string;
  copy: string;
  copied: string;
  copyFailed: string;
  recipient: string;
  noRecipient: string;
  stepsHeading: string;
  steps: { signIn: string; recipient: (email: string) => string; amount: (amount: string) => string; memo: (memo: string) => string; send: string };
  banksHeading: string;
  banksHelp: string;
  opensInNewTab: string;
  timeLeft: string;
  waiting: string;
  completedLive: string;
  /** The embedded frame's: it never leaves the merchant's page (the merchant's onComplete decides what comes next). */
  completedLiveEmbedded: string;
  expiredLive: string;
  cancel: (merchant: string) => string;
  language: string;
  notFoundTitle: string;
  notFoundBody: string;
  expiredTitle: string;
  expiredBody: string;
  completedTitle: string;
  completedBody: string;
  returnToMerchant: string;
  unavailableTitle: string;
  unavailableBody: string;
  contactSupport: (requestId: string) => string;
  frameLoading: string;
}

const en: Messages = {
  title: 'Pay by Interac e-Transfer',
  testBanner: 'Test mode: no real money moves, so do not send a transfer. The merchant simulates this payment.',
  payTo: (merchant) => `Payment to ${merchant}`,
  amount: 'Amount',
  memoLabel: 'Message for your transfer',
  memoHelp: 'Type this code exactly as the message of your e-Transfer, so we can match your payment.',
  copy: 'Copy',
  copied: 'Copied to the clipboard',
  copyFailed: 'Could not copy; select the code and copy it yourself',
  recipient: 'Send to',
  noRecipient: 'This merchant has not set up a deposit address yet. Please contact them.',
  stepsHeading: 'How to pay',
  steps: {
    signIn: 'Sign in to your bank’s website or app (choose your bank below).',
    recipient: (email) => `Choose Interac e-Transfer and send money to ${email}.`,
    amount: (amount) => `Enter the amount: ${amount}.`,
    memo: (memo) => `Enter ${memo} as the message of the transfer.`,
    send: 'Send the transfer. This page updates by itself once your payment arrives.',
  },
  banksHeading: 'Your bank',
  banksHelp: 'Opens your bank’s sign-in page in a new tab.',
  opensInNewTab: '(opens in a new tab)',
  timeLeft: 'Time left',
  waiting: 'Waiting for your transfer…',
  completedLive: 'Payment received. Taking you back to the merchant…',
  completedLiveEmbedded: 'Payment received.',
  expiredLive: 'This payment request has expired. If you already sent the e-Transfer, do not send it again: contact the merchant, and your payment will be matched to your order or refunded.',
  cancel: (merchant) => `Cancel and return to ${merchant}`,
  language: 'Language',
  notFoundTitle: 'Checkout not found',
  notFoundBody: 'This payment link is not valid. Please go back to the merchant and start again.',
  expiredTitle: 'This payment request has expired',
  expiredBody:
    'If you already sent the e-Transfer, do not send it again: contact the merchant, and your payment will be matched to your order or refunded. If you have not sent it, nothing was paid; go back to the merchant to start again.',
  completedTitle: 'Payment received',
  completedBody: 'This payment is complete. Thank you.',
  returnToMerchant: 'Return to the merchant',
  unavailableTitle: 'Checkout is temporarily unavailable',
  unavailableBody: 'Please try again in a moment.',
  contactSupport: (requestId) => `If it persists, contact support with request id ${requestId}.`,
  frameLoading: 'Loading checkout…',
};

const fr: Messages = {
  title: 'Payer par Virement Interac',
  testBanner: 'Mode test : aucun argent réel n’est transféré, n’envoyez donc pas de virement. Le marchand simule ce paiement.',
  payTo: (merchant) => `Paiement à ${merchant}`,
  amount: 'Montant',
  memoLabel: 'Message de votre virement',
  memoHelp: 'Saisissez ce code tel quel comme message de votre virement, pour que nous puissions reconnaître votre paiement.',
  copy: 'Copier',
  copied: 'Copié dans le presse-papiers',
  copyFailed: 'Copie impossible ; sélectionnez le code et copiez-le vous-même',
  recipient: 'Destinataire',
  noRecipient: 'Ce marchand n’a pas encore configuré d’adresse de dépôt. Veuillez le contacter.',
  stepsHeading: 'Comment payer',
  steps: {
    signIn: 'Connectez-vous au site ou à l’application de votre banque (choisissez votre banque ci-dessous).',
    recipient: (email) => `Choisissez Virement Interac et envoyez l’argent à ${email}.`,
    amount: (amount) => `Saisissez le montant : ${amount}.`,
    memo: (memo) => `Saisissez ${memo} comme message du virement.`,
    send: 'Envoyez le virement. Cette page se met à jour d’elle-même dès que votre paiement arrive.',
  },
  banksHeading: 'Votre banque',
  banksHelp: 'Ouvre la page de connexion de votre banque dans un nouvel onglet.',
  opensInNewTab: '(s’ouvre dans un nouvel onglet)',
  timeLeft: 'Temps restant',
  waiting: 'En attente de votre virement…',
  completedLive: 'Paiement reçu. Retour chez le marchand…',
  completedLiveEmbedded: 'Paiement reçu.',
  expiredLive:
    'Cette demande de paiement a expiré. Si vous avez déjà envoyé le Virement Interac, ne l’envoyez pas de nouveau : communiquez avec le marchand, et votre paiement sera associé à votre commande ou remboursé.',
  cancel: (merchant) => `Annuler et retourner chez ${merchant}`,
  language: 'Langue',
  notFoundTitle: 'Paiement introuvable',
  notFoundBody: 'Ce lien de paiement n’est pas valide. Retournez chez le marchand pour recommencer.',
  expiredTitle: 'Cette demande de paiement a expiré',
  expiredBody:
    'Si vous avez déjà envoyé le Virement Interac, ne l’envoyez pas de nouveau : communiquez avec le marchand, et votre paiement sera associé à votre commande ou remboursé. Si vous ne l’avez pas envoyé, rien n’a été payé ; retournez chez le marchand pour recommencer.',
  completedTitle: 'Paiement reçu',
  completedBody: 'Ce paiement est terminé. Merci.',
  returnToMerchant: 'Retourner chez le marchand',
  unavailableTitle: 'Le paiement est temporairement indisponible',
  unavailableBody: 'Veuillez réessayer dans un instant.',
  contactSupport: (requestId) => `Si le problème persiste, communiquez avec le soutien en indiquant l’identifiant de requête ${requestId}.`,
  frameLoading: 'Chargement du paiement…',
};

const MESSAGES: Record<PayerLocale, Messages> = { 'en-CA': en, 'fr-CA': fr };

/** Every language the payer pages speak (a new PayerLocale needs its texts above). */
export const PAYER_LOCALES = Object.keys(MESSAGES) as PayerLocale[];

export const messagesFor = (locale: PayerLocale): Messages => MESSAGES[locale];
