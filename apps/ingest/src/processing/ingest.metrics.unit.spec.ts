import { ReviewReason } from '@pp/contracts';
import { ServiceMetrics } from '@pp/platform';
import { authenticationFailureLabel, IngestMetrics, reviewReasonLabel } from './ingest.metrics';

describe('ingest metrics', () => {
  describe('given reasons as the pipeline records them', () => {
    it('then labels keep the code and drop what varies (the header named, reasons outside the enum)', () => {
      expect(authenticationFailureLabel('header_not_signed:content-type')).toBe('header_not_signed');
      expect(authenticationFailureLabel('dkim_failed')).toBe('dkim_failed');
      expect(reviewReasonLabel(ReviewReason.WrongAmount)).toBe('wrong_amount');
      expect(reviewReasonLabel('amount_unreadable')).toBe('other');
    });
  });

  describe('given an unauthenticated notice sent to review, and a duplicate', () => {
    it('then each outcome, review reason and authentication failure is counted once', async () => {
      const metrics = new ServiceMetrics('ingest', { processMetrics: false });
      const ingest = new IngestMetrics(metrics);
      ingest.authenticated({
        authenticated: false,
        reasons: ['header_not_signed:from', 'header_not_signed:subject', 'dkim_failed'],
        from: null,
        recipient: { signed_recipient: null, reasons: [] },
      });
      ingest.handedOff({ disposition: 'manual_review', review_reasons: [ReviewReason.UnauthenticatedSender, 'dkim_failed', 'parse_failed'] });
      ingest.duplicate();
      const text = await metrics.text();
      expect(text).toContain('pp_ingest_messages_total{outcome="manual_review",service="ingest"} 1');
      expect(text).toContain('pp_ingest_messages_total{outcome="duplicate",service="ingest"} 1');
      expect(text).toContain('pp_ingest_review_reasons_total{reason="unauthenticated_sender",service="ingest"} 1');
      expect(text).toContain('pp_ingest_review_reasons_total{reason="other",service="ingest"} 1');
      expect(text).toContain('pp_ingest_authentication_failures_total{reason="header_not_signed",service="ingest"} 1');
      expect(text).toContain('pp_ingest_authentication_failures_total{reason="dkim_failed",service="ingest"} 1');
    });
  });
  describe('given a fresh registry', () => {
    it('then pp_ingest_authentication_failures_total is exported at 0 for every reason', async () => {
      const metrics = new ServiceMetrics('ingest', { processMetrics: false });
      new IngestMetrics(metrics);
      const text = await metrics.text();
      for (const reason of ['dkim_missing', 'header_not_signed', 'auth_failed', 'header_section_too_large']) {
        expect(text).toContain(`pp_ingest_authentication_failures_total{reason="${reason}",service="ingest"} 0\n`);
      }
      expect(text.match(/^pp_ingest_authentication_failures_total\{.*\} 0$/gm)).toHaveLength(17);
    });
  });
});
