-- Retention: export files are deleted after EXPORT_RETENTION_DAYS and their export says EXPIRED;
-- finished job rows are deleted after JOB_RETENTION_DAYS.
ALTER TABLE audience_exports DROP CONSTRAINT IF EXISTS audience_exports_status_check;
ALTER TABLE audience_exports ADD CONSTRAINT audience_exports_status_check
  CHECK (status IN ('PENDING', 'RUNNING', 'READY', 'FAILED', 'EXPIRED'));
ALTER TABLE audience_exports ADD COLUMN expired_at timestamptz;
-- What the sweep reads: ready exports by age, and finished jobs by age.
CREATE INDEX audience_exports_ready_age ON audience_exports (completed_at) WHERE status = 'READY';
CREATE INDEX jobs_finished_age ON jobs (finished_at) WHERE status IN ('succeeded', 'failed');
