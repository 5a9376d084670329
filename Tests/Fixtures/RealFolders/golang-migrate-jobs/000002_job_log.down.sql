DROP INDEX IF EXISTS job_log__job_id_index;
DROP TABLE IF EXISTS job_log;
