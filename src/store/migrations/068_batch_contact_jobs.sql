-- Batch contact enrichment runs as a job of the one job table (kind 'contacts.batch', one per
-- task) instead of a loop of its own. Tasks accepted before this change have no job: give each
-- unfinished one its job, so that they complete after the upgrade.
INSERT INTO jobs (kind, account_id, payload, max_attempts)
SELECT 'contacts.batch', t.account_id, jsonb_build_object('taskId', t.id), 5
  FROM contact_batch_tasks t
 WHERE t.status IN ('QUEUED', 'RUNNING')
   AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = 'contacts.batch' AND j.account_id = t.account_id
                     AND j.payload->>'taskId' = t.id::text AND j.status IN ('queued', 'running'));
