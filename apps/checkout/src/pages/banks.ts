/**
 * Sign-in pages of the major Canadian banks and credit unions that send
 * Interac e-Transfers. Links leave the page with rel="noopener noreferrer",
 * so the bank never learns the checkout URL.
 */
export const BANKS: ReadonlyArray<{ name: string; url: string }> = [
  { name: 'RBC Royal Bank', url: 'https://secure.royalbank.com/statics/login-service-ui/index#/full/signin' },
  { name: 'TD Canada Trust', url: 'https://authentication.td.com/uap-ui/?consumer=easyweb' },
  { name: 'Scotiabank', url: 'https://auth.scotiaonline.scotiabank.com/online' },
  { name: 'BMO', url: 'https://www1.bmo.com/banking/digital/login' },
  { name: 'CIBC', url: 'https://www.cibconline.cibc.com/ebm-resources/online-banking/client/index.html#/auth/signon' },
  { name: 'National Bank', url: 'https://app.bnc.ca/' },
  { name: 'Desjardins', url: 'https://accesd.mouv.desjardins.com/' },
  { name: 'Tangerine', url: 'https://www.tangerine.ca/app/#/login' },
  { name: 'Simplii Financial', url: 'https://online.simplii.com/ebm-resources/public/client/web/index.html#/signon' },
  { name: 'ATB Financial', url: 'https://www.atbonline.com/' },
  { name: 'Laurentian Bank', url: 'https://blcweb.banquelaurentienne.ca/' },
  { name: 'EQ Bank', url: 'https://secure.eqbank.ca/login' },
];
