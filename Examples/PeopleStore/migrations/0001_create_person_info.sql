-- migrate:up
CREATE TABLE person_info (
  name TEXT NOT NULL,
  age INTEGER
);

-- migrate:down
DROP TABLE person_info;
