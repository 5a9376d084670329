-- The FMDB article's table. IF NOT EXISTS: a hand-made template without history may
-- already have it.
-- migrate:up
CREATE TABLE IF NOT EXISTS person_info (
  name TEXT NOT NULL,
  age  INTEGER
);

-- migrate:down
DROP TABLE person_info;
