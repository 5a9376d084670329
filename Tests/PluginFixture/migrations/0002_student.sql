-- migrate:up
CREATE TABLE student (
  stuID TEXT PRIMARY KEY,
  stuName TEXT NOT NULL,
  stuAge INTEGER
);
CREATE INDEX student_by_name ON student (stuName);

-- migrate:down
DROP TABLE student;
