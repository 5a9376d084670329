-- The student tutorial's table, saved by primary key.
-- migrate:up
CREATE TABLE IF NOT EXISTS student (
  stuID    TEXT PRIMARY KEY,
  stuName  TEXT NOT NULL,
  stuAge   INTEGER,
  stuClass TEXT
);

-- migrate:down
DROP TABLE student;
