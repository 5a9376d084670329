-- migrate:up
CREATE TABLE person_info (
  name TEXT,
  age INTEGER
);

-- migrate:down
DROP TABLE person_info;
