import { signTestPayload } from '@pp/sdk';
import { verifyWebhook } from './verify-webhook';

describe('verifying a delivery the way a merchant does', () => {
  const event = { id: 'evt_abc123def456', type: 'payment.confirmed', created_at: '2026-11-23T18:00:00.000Z', livemode: false, data: {} };
  const NOW = 1_790_000_000;
  const delivery = (secrets: string[], nowSeconds = NOW) => {
    const { body, headers } = signTestPayload(event, secrets, { timestamp: NOW });
    return (trusted: string[]) => verifyWebhook({ rawBody: Buffer.from(body), headers, secrets: trusted, nowSeconds });
  };

  it('given a delivery during a rotation, when the receiver still has only the old secret, then it is valid, as the SDK’s verify says, though X-Service-Signature is the new secret’s', () => {
    expect(delivery(['whsec_new', 'whsec_old'])(['whsec_old'])).toEqual({ bodySignatureValid: false, timestampedSignatureValid: true, secretsMatchedByV2: ['whsec_old'], valid: true });
  });

  it('given a delivery during a rotation, when checked with both secrets, then both are found to sign it', () => {
    expect(delivery(['whsec_new', 'whsec_old'])(['whsec_new', 'whsec_old', 'whsec_other'])).toMatchObject({ secretsMatchedByV2: ['whsec_new', 'whsec_old'], bodySignatureValid: true, valid: true });
  });

  it('given a delivery signed with another secret, or checked too late, when verified, then it is not valid', () => {
    expect(delivery(['whsec_new'])(['whsec_other'])).toEqual({ bodySignatureValid: false, timestampedSignatureValid: false, secretsMatchedByV2: [], valid: false });
    expect(delivery(['whsec_new'], NOW + 301)(['whsec_new'])).toMatchObject({ timestampedSignatureValid: false, valid: false });
  });
});
