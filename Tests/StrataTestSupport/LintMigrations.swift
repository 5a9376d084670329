/// Migrations the linter's tests share (library and command line).
public enum LintMigrations {
  /// Creates `person` and `pet` (`pet.owner` references `person` with ON DELETE CASCADE, and is
  /// indexed), with a down part that drops both (never linted).
  public static let base = """
    -- migrate:up
    CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
    CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES person(id) ON DELETE CASCADE);
    CREATE INDEX pet_owner ON pet(owner);
    -- migrate:down
    DROP TABLE pet;
    DROP TABLE person;

    """
}
