-- migrate:up
CREATE TABLE student (
  stuID TEXT PRIMARY KEY,
  stuName TEXT NOT NULL,
  stuAge INTEGER NOT NULL CHECK (stuAge > 0)
);
CREATE INDEX student_by_name ON student (stuName);

-- migrate:down
DROP TABLE student;
