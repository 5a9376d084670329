import Foundation
import StrataTestSupport
import Testing

/// Each command reads its command line once, into one typed value, before it touches a file:
/// a usage error is reported as such whatever else is wrong, an empty path is refused by every
/// command, and nothing in the CLI after parsing takes the parsed arguments.
@Suite struct OptionsParsedOnceTests {
  /// Combinations a command refuses, each with a migrations folder that does not exist: the
  /// usage error (exit 64) is what is reported, not the folder.
  @Test(arguments: [
    (["migrate", "--keep-backups", "2"], "--keep-backups needs --backup"),
    (["validate", "--rows", "--files-only"], "--rows tries the migrations on a database's rows"),
    (
      ["migrate", "--schema-file", "s.sql", "--no-schema-file"],
      "--schema-file and --no-schema-file cannot be used together"
    ),
    (["template", "--check", "--force"], "--check writes nothing"),
    (["template", "--stamp", "ok"], "--stamp is written only by a check"),
  ])
  func aUsageErrorComesBeforeAFileError(_ arguments: [String], _ message: String) throws {
    let project = try Project()
    let result = try StrataProcess.run(
      arguments + ["--migrations", "nowhere"],
      in: project.dir.url
    )
    #expect(result.exitCode == 64, "\(result.standardError)")
    #expect(result.standardError.contains(message), "\(result.standardError)")
    #expect(!result.standardError.contains("nowhere"), "\(result.standardError)")
  }

  /// `new` resolved no path before it wrote, so an empty `--migrations` wrote the migration
  /// into the current folder; it is the usage error every other command gives.
  @Test func newWithAnEmptyMigrationsOptionIsAUsageError() throws {
    let project = try Project()
    let result = try StrataProcess.run(
      ["new", "add_email", "--migrations="],
      in: project.dir.url
    )
    #expect(result.exitCode == 64)
    #expect(result.standardError.contains("--migrations needs a path"), "\(result.standardError)")
    let written = try FileManager.default.contentsOfDirectory(atPath: project.dir.url.path)
    #expect(written == ["migrations"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: project.dir.path("migrations").path) == []
    )
  }

  /// Only initializers (a command's `Options`, an option group) take `ParsedArguments`, and
  /// the check of empty paths they all run; the tool builds it and hands it to them. A
  /// function that takes it again would read the command line a second time.
  @Test func onlyInitializersTakeTheParsedArguments() throws {
    let folder = SampleProject.repository.appendingPathComponent("Sources/StrataCLI")
    let files = try #require(FileManager.default.enumerator(atPath: folder.path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
    var readers: [String] = []
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") where line.contains(": ParsedArguments") {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let reads = trimmed.hasPrefix("init(") || trimmed.hasPrefix("static func rejectEmptyPaths(")
        if !reads { readers.append("\(file): \(trimmed)") }
      }
    }
    #expect(readers.isEmpty, "\(readers)")
  }
}
