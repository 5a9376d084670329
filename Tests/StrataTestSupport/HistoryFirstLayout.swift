/// `strata_migrations` exactly as strata created it before versions had a type (History.createSQL
/// up to the history upgrade), to build the databases an earlier strata left.
public let historyFirstLayoutSQL = """
  CREATE TABLE IF NOT EXISTS strata_migrations (
    version     INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    checksum    TEXT NOT NULL,
    applied_at  TEXT NOT NULL,
    duration_ms INTEGER NOT NULL
  )
  """
