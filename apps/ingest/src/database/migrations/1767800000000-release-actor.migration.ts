import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who released a quarantined e-mail (a platform admin's id, or the admin
 * token's), stored with the release itself: the audit entry is written only
 * once the release's answer comes back, and a release that commits after
 * its caller gave up would otherwise name no one. Null for a release no
 * operator asked for (a repeated hand-off that matched).
 */
export class ReleaseActor1767800000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ingest.quarantine_releases ADD COLUMN released_by text CHECK (length(released_by) BETWEEN 1 AND 128)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE ingest.quarantine_releases DROP COLUMN released_by`);
  }
}
