-- migrate:up

CREATE TABLE runs (
    id character(32) NOT NULL,
    state TEXT NOT NULL,
    name TEXT,
    function_path TEXT,
    created_at timestamp WITH time zone NOT NULL,
    updated_at timestamp WITH time zone NOT NULL,
    ended_at timestamp,
    parent_id character(32),

    PRIMARY KEY (id)
);

-- migrate:down

DROP TABLE runs;
