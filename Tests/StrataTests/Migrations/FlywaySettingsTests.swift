import Foundation
import Testing

@testable import Strata

/// Issue 11, Flyway: names read as Flyway's ResourceNameParser reads them, `flyway.conf` and
/// `flyway.toml` settings read or refused (ConfigUtils' keys), script settings and placeholders.
@Suite struct FlywaySettingsTests {
  private func parse(
    _ name: String,
    _ settings: FlywaySettings = FlywaySettings()
  ) throws
    -> FlywayFileName?
  {
    try FlywayFileName.parse(name, shown: "sql/" + name, settings: settings)
  }

  private func reason(_ body: () throws -> Void) -> (file: String, line: Int, reason: String)? {
    do {
      try body()
    } catch MigrationError.formatProblem(let file, let line, _, let reason) {
      return (file, line, reason)
    } catch {
      Issue.record("unexpected \(error)")
    }
    return nil
  }

  @Test func namesAreReadAsFlywayReadsThem() throws {
    #expect(try parse("V1__init.sql") == .init(kind: .versioned, version: "1", description: "init"))
    #expect(try parse("V1.1__add_users.sql")?.version == "1.1")
    #expect(try parse("V2_1__x.SQL")?.version == "2_1")
    // The first separator splits: the description keeps later ones.
    #expect(try parse("V3__a__b.sql")?.description == "a__b")
    #expect(try parse("V4.sql") == .init(kind: .versioned, version: "4", description: ""))
    #expect(try parse("U1__init.sql")?.kind == .undo)
    #expect(
      try parse("R__views.sql") == .init(kind: .repeatable, version: "", description: "views")
    )
    // Not a migration file: Flyway does not look at it.
    #expect(try parse("README.md") == nil)
    #expect(FlywayFileName.looksLikeFlyway("V1__init.sql"))
    #expect(FlywayFileName.looksLikeFlyway("R__views.sql"))
    #expect(!FlywayFileName.looksLikeFlyway("0001_init.sql"))
    #expect(!FlywayFileName.looksLikeFlyway("Vacation.sql"))
  }

  /// Names Flyway skips without a word (its validateMigrationNaming is off by default), and
  /// callbacks it runs around migrations: strata refuses each, naming it.
  @Test func badNamesAndCallbacksAreRefused() throws {
    let single = reason { _ = try parse("V1_init.sql") }
    #expect(single?.file == "sql/V1_init.sql")
    #expect(single?.reason.contains("'1_init' is not a Flyway version") == true)
    #expect(single?.reason.contains("(the separator is '__')") == true)
    #expect(reason { _ = try parse("R1__x.sql") }?.reason.contains("no version") == true)
    #expect(reason { _ = try parse("V__x.sql") }?.reason.contains("has no version") == true)
    #expect(reason { _ = try parse("v1__x.sql") }?.reason.contains("skip it") == true)
    let callback = reason { _ = try parse("afterMigrate__grants.sql") }
    #expect(callback?.reason.contains("'afterMigrate' is a Flyway callback") == true)
    #expect(reason { _ = try parse("beforeMigrate.sql") } != nil)
  }

  @Test func confSettingsChangeHowNamesAreRead() throws {
    let conf = FlywaySettings.ConfigFile(
      shown: "flyway.conf",
      bytes: Array(
        """
        # Flyway's documented keys
        flyway.url=jdbc:sqlite:app.db
        flyway.user = sa
        flyway.locations=filesystem:sql
        flyway.sqlMigrationPrefix=M
        flyway.undoSqlMigrationPrefix: D
        flyway.repeatableSqlMigrationPrefix=RM
        flyway.sqlMigrationSeparator=-
        flyway.sqlMigrationSuffixes=.sql,.ddl
        flyway.placeholderReplacement=false
        flyway.placeholders.owner=app
        flyway.encoding=UTF-8
        other.key=anything
        """.utf8
      )
    )
    let settings = try FlywaySettings.settings(of: conf)
    #expect(settings.versionedPrefix == "M" && settings.undoPrefix == "D")
    #expect(settings.separator == "-" && settings.suffixes == [".sql", ".ddl"])
    #expect(!settings.placeholderReplacement)
    #expect(
      try parse("M1-init.ddl", settings)
        == .init(kind: .versioned, version: "1", description: "init")
    )
    #expect(try parse("RM-views.sql", settings)?.kind == .repeatable)
    #expect(try parse("D1-init.sql", settings)?.kind == .undo)
  }

  @Test func refusedConfSettingsNameTheLineAndKey() throws {
    func refusal(_ text: String, _ name: String = "flyway.conf") -> (String, Int, String)? {
      reason {
        _ = try FlywaySettings.settings(of: .init(shown: name, bytes: Array(text.utf8)))
      }.map { ($0.file, $0.line, $0.reason) }
    }
    let initSQL = refusal("flyway.url=jdbc:sqlite:x\nflyway.initSql=PRAGMA foreign_keys=OFF\n")
    #expect(initSQL?.0 == "flyway.conf" && initSQL?.1 == 2)
    #expect(initSQL?.2.contains("'initSql'") == true)
    #expect(initSQL?.2.contains("on every connection") == true)
    #expect(refusal("flyway.encoding=ISO-8859-1")?.2.contains("UTF-8 only") == true)
    #expect(refusal("flyway.placeholderReplacement=maybe")?.2.contains("true or false") == true)
    #expect(refusal("flyway.sqlMigrationPrefix=${PREFIX}")?.2.contains("environment") == true)
    #expect(refusal("flyway.somethingNew=1")?.2.contains("'somethingNew'") == true)
    // A value continued on the next line is one setting.
    #expect(refusal("flyway.url=jdbc:\\\n  sqlite:x\nflyway.initSql=x")?.1 == 3)
  }

  @Test func tomlSettingsAreReadFromTheFlywayTable() throws {
    let toml = """
      [environments.default]
      url = "jdbc:sqlite:app.db"

      [flyway]
      locations = ["filesystem:sql"]
      sqlMigrationSuffixes = [".sql"]
      placeholderReplacement = false
      sqlMigrationSeparator = "--"

      [flyway.placeholders]
      owner = "app"
      """
    let settings = try FlywaySettings.settings(
      of: .init(shown: "flyway.toml", bytes: Array(toml.utf8))
    )
    #expect(!settings.placeholderReplacement && settings.separator == "--")
    let refused = reason {
      _ = try FlywaySettings.settings(
        of: .init(shown: "flyway.toml", bytes: Array("[flyway]\ninitSql = \"x\"\n".utf8))
      )
    }
    #expect(refused?.file == "flyway.toml" && refused?.line == 2)
  }

  /// The parent folder where `flyway.conf` may sit, as messages name it.
  @Test func parentFolderIsNamedAsTheUserNamedTheFolder() {
    #expect(FlywaySettings.parentShown("m") == "")
    #expect(FlywaySettings.parentShown("db/migration") == "db/")
    #expect(FlywaySettings.parentShown("db/migration/") == "db/")
    #expect(FlywaySettings.parentShown("/srv/app/sql") == "/srv/app/")
  }

  @Test func scriptSettingsAndPlaceholders() throws {
    let options = try FlywayScript.options(
      conf: Array("# comment\nexecuteInTransaction=false\nencoding=UTF-8\n".utf8),
      file: "sql/V1__x.sql.conf"
    )
    #expect(options.executeInTransaction == false && options.placeholderReplacement == nil)
    let condition = reason {
      _ = try FlywayScript.options(conf: Array("shouldExecute=true\n".utf8), file: "c.conf")
    }
    #expect(condition?.reason.contains("'shouldExecute'") == true)
    #expect(
      reason { _ = try FlywayScript.options(conf: Array("mixed=true".utf8), file: "c") } != nil
    )
    let placeholder = reason {
      try FlywayScript.refusePlaceholders(
        "CREATE TABLE t (x);\n-- owner: ${owner}\nGRANT;\n",
        file: "sql/V1__x.sql",
        settings: FlywaySettings()
      )
    }
    #expect(placeholder?.line == 2)
    #expect(placeholder?.reason.contains("'${owner}' is a Flyway placeholder") == true)
    var custom = FlywaySettings()
    custom.placeholderPrefix = "#["
    custom.placeholderSuffix = "]"
    try FlywayScript.refusePlaceholders("SELECT '${x}';", file: "f", settings: custom)
    #expect(
      reason { try FlywayScript.refusePlaceholders("SELECT '#[x]';", file: "f", settings: custom) }
        != nil
    )
  }
}
