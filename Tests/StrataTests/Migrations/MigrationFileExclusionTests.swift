import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Nothing is skipped silently: a file with a version that is not SQL is an error unless
/// excluded on purpose; files that are not migrations are ignored.
@Suite struct MigrationFileExclusionTests {
  static let goose = [
    "00001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n-- +goose Down\nDROP TABLE a;\n",
    "00003_c.sql": "-- +goose Up\nCREATE TABLE c (x);\n",
  ]

  @Test(arguments: [
    "00002_seed.go", "00002_seed.rs", "00002_seed.py", "00002_seed.js", "00002_seed.ts",
    "00002_seed.rb", "00002_seed.sh", "00002_seed.sql.gz", "2.go",
  ])
  func aVersionedFileThatIsNotSQLIsAnError(name: String) throws {
    var files = Self.goose
    files[name] = "package migrations\n"
    let fixture = try MigrationFixture(files)
    let error = #expect(throws: MigrationError.self) { try fixture.migrator() }
    #expect(error == .notSQL(file: "migrations/\(name)"))
    #expect(error?.message.contains("a run would miss that step; nothing was run") == true)
    #expect(error?.help.contains("--") == false)
    // Excluded on purpose, the folder reads without it.
    let set = try MigrationSet(
      directory: fixture.dir.path("migrations"),
      displayPath: "migrations",
      excluding: MigrationFileExclusion([name])
    )
    #expect(set.migrations.map(\.version) == [1, 3])
  }

  @Test(arguments: ["README.md", "atlas.sum", ".keep", ".DS_Store", "notes.txt", "schema.go"])
  func filesWithoutAVersionAreIgnored(name: String) throws {
    var files = Self.goose
    files[name] = "x"
    let fixture = try MigrationFixture(files)
    #expect(try fixture.migrator().migrations.migrations.map(\.version) == [1, 3])
  }

  @Test(arguments: [
    ("*.go", "00005_seed.go", true), ("00005_*", "00005_seed.go", true),
    ("00005_seed.go", "00005_seed.go", true), ("?0005_seed.g?", "00005_seed.go", true),
    ("*seed*", "00005_seed.go", true), ("migrations/*.go", "00005_seed.go", true),
    ("*.py", "00005_seed.go", false), ("00005_", "00005_seed.go", false),
    ("seed.go", "00005_seed.go", false), ("*.go", "00005_seed.gox", false),
    ("*.sql", "00001_a.sql", true),
  ])
  func globsMatchTheNameOrTheShownPath(pattern: String, name: String, matches: Bool) {
    let exclusion = MigrationFileExclusion([pattern])
    #expect(exclusion.excludes(name: name, shown: "migrations/\(name)") == matches)
  }

  /// An excluded `.sql` file is left out too (a step another database needs, not this one).
  @Test func anExcludedSQLFileIsLeftOut() throws {
    let fixture = try MigrationFixture(Self.goose)
    let set = try MigrationSet(
      directory: fixture.dir.path("migrations"),
      displayPath: "migrations",
      excluding: MigrationFileExclusion(["00003_*"])
    )
    #expect(set.migrations.map(\.version) == [1])
  }

  /// `new` refuses the folder too, and with the file excluded it still never reuses its
  /// version.
  @Test func newCountsAnExcludedFileVersion() throws {
    var files = Self.goose
    files["00004_seed.go"] = "package migrations\n"
    let fixture = try MigrationFixture(files)
    let folder = fixture.dir.path("migrations")
    #expect(
      throws: MigrationError.notSQL(file: folder.appendingPathComponent("00004_seed.go").path)
    ) {
      try MigrationSet.createMigrationFiles(in: folder, name: "next")
    }
    let urls = try MigrationSet.createMigrationFiles(
      in: folder,
      name: "next",
      excluding: MigrationFileExclusion(["*.go"])
    )
    #expect(urls.map(\.lastPathComponent) == ["00005_next.sql"])
  }

  /// The patterns' meaning: `[` and `\` are themselves (no classes, no escapes), `?` is one
  /// character of a non-ASCII name (never one of its bytes: glibc's `fnmatch` would let `??`
  /// match `é`, which is why strata keeps its own matcher), `*` crosses a `/` and a leading dot,
  /// and a `*` in a name is matched by a `*` in the pattern as by any other character.
  @Test(arguments: [
    ("0000[1]_a.go", "0000[1]_a.go", true), ("0000[1]_a.go", "00001_a.go", false),
    ("0000[]_a.go", "0000[]_a.go", true), ("a\\*.go", "a\\x.go", true),
    ("a\\*.go", "ax.go", false), ("1_?.go", "1_\u{E9}.go", true), ("?_a.go", "\u{E9}_a.go", true),
    ("1_???.go", "1_\u{E9}.go", false), ("*.go", "migrations/.x.go", true), ("*", ".keep", true),
    ("?keep", ".keep", true), ("a\u{0}b", "a", false), ("1_??.go", "1_\u{E9}.go", false),
    ("0005_??.go", "0005_\u{DF}.go", false), ("??", "e\u{301}", false), ("?", "e\u{301}", true),
    ("g/*", "g/*.db", true), ("0008_*", "0008_*.go", true), ("*.db", "a*b.db", true),
  ])
  func patternsMatchCharactersNotBytes(pattern: String, text: String, matches: Bool) {
    #expect(MigrationFileExclusion.matches(pattern, text) == matches)
  }
}
