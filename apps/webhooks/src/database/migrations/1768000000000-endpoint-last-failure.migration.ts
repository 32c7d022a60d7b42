import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When an endpoint's latest failed attempt ended, beside `failing_since`
 * (when its failure streak began): a failure after a quiet spell longer than
 * the retry schedule's longest wait starts a new streak, so an endpoint whose
 * last delivery ran out of attempts days ago is not judged, at its next
 * failure, as failing ever since (docs/ARCHITECTURE.md, Webhook delivery).
 * Endpoints failing now get their latest failed attempt's time; one with none
 * recorded keeps its streak's start.
 */
export class EndpointLastFailure1768000000000 implements MigrationInterface {
  name = 'EndpointLastFailure1768000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints ADD COLUMN last_failure_at timestamptz`);
    await db.query(`
      UPDATE webhooks.endpoints ep
         SET last_failure_at = COALESCE(
               (SELECT a.created_at FROM webhooks.delivery_attempts a
                 WHERE a.endpoint_id = ep.id AND a.delivery_status IN ('FAILED', 'EXHAUSTED')
                 ORDER BY a.id DESC LIMIT 1),
               ep.failing_since)
       WHERE ep.failing_since IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints DROP COLUMN last_failure_at`);
  }
}
