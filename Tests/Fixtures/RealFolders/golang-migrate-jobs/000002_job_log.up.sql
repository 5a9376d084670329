CREATE TABLE IF NOT EXISTS job_log (
    job_id INTEGER NOT NULL,
    logged_at TIMESTAMP NOT NULL,
    level INTEGER NOT NULL,
    message TEXT NOT NULL COLLATE BINARY
);

CREATE INDEX IF NOT EXISTS job_log__job_id_index ON job_log (job_id);
