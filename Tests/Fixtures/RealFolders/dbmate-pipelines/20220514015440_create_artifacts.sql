-- migrate:up

CREATE TABLE artifacts (
    id character(40) NOT NULL,
    json_summary JSONB NOT NULL,
    created_at timestamp WITH time zone NOT NULL,
    updated_at timestamp WITH time zone NOT NULL,

    PRIMARY KEY (id)
);

CREATE TABLE run_artifacts (
    run_id character(32) NOT NULL,
    artifact_id character(40) NOT NULL,
    name TEXT,

    PRIMARY KEY (run_id, artifact_id, name),
    FOREIGN KEY (run_id) REFERENCES runs(id),
    FOREIGN KEY (artifact_id) REFERENCES artifacts(id)
);

-- migrate:down

DROP TABLE run_artifacts;

DROP TABLE artifacts;
