-- migrate:up
CREATE TABLE student (stuID TEXT PRIMARY KEY, stuName TEXT NOT NULL, age INTEGER);
