-- migrate:up

CREATE INDEX runs_function_path ON runs(function_path);

-- migrate:down

DROP INDEX runs_function_path;
