CREATE TABLE job_params (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    digest TEXT NOT NULL COLLATE NOCASE,
    body blob NOT NULL
);

CREATE UNIQUE INDEX IF NOT EXISTS job_params__digest_index ON job_params (digest);

---
CREATE TABLE jobs (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    name TEXT,
    param_id INTEGER NOT NULL,
    created_at TIMESTAMP NOT NULL
);

CREATE INDEX IF NOT EXISTS jobs__param_id_index ON jobs (param_id);

---
CREATE TABLE job_files(
    path TEXT NOT NULL COLLATE BINARY,
    job_id INTEGER NOT NULL,
    UNIQUE (path, job_id) ON CONFLICT FAIL
);

CREATE INDEX IF NOT EXISTS job_files__job_id_index ON job_files (job_id);
