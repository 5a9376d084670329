-- A schema tweak with ALTER TABLE. The down part needs SQLite 3.35+ (DROP COLUMN).
-- migrate:up
ALTER TABLE student ADD COLUMN email TEXT;
CREATE INDEX student_class ON student (stuClass);

-- migrate:down
DROP INDEX student_class;
ALTER TABLE student DROP COLUMN email;
