-- migrate:up

CREATE TABLE users (
    email TEXT NOT NULL,
    name TEXT,
    api_key TEXT NOT NULL,
    created_at timestamp NOT NULL,

    PRIMARY KEY (email)
);

CREATE TABLE users_tmp (
    id character(32) NOT NULL,
    email TEXT NOT NULL,
    name TEXT,
    api_key TEXT NOT NULL,
    created_at timestamp NOT NULL,

    PRIMARY KEY (id),
    UNIQUE (email)
);

-- migrate:down

DROP TABLE users_tmp;

DROP TABLE users;
