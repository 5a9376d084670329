import Foundation
import StrataTestSupport
import Testing

/// A file strata creates is durable when strata says it is done: its content is synced before
/// it takes its name, and the folder holding the name is synced after. Seen from the system
/// calls the real binary makes, under `strace`.
// Not under a sanitizer (`.ci/sanitize`): its runtime refuses to run traced by strace.
@Suite(.straceInstalled, .notUnderSanitizer)
struct DurableOutputTests {
  @Test(arguments: [
    ["template", "--output", "out.sqlite3"], ["init", "--database", "out.sqlite3"],
  ])
  func theNewNameIsSyncedBeforeStrataSaysDone(_ arguments: [String]) throws {
    let project = try Project(threeMigrations)
    if arguments[0] == "init" {
      try #require(try project.strata("template").exitCode == 0)
    }
    let trace = SystemCallTrace(file: project.dir.path("trace.txt"))
    let result = try trace.run(arguments, in: project.dir.url)
    try #require(result.exitCode == 0, "\(result.standardError)")
    let lines = try trace.lines()
    let folder = project.dir.url.resolvingSymlinksInPath().path
    let destination = "\(folder)/out.sqlite3\""
    let named = try #require(
      lines.firstIndex {
        ($0.hasPrefix("link") || $0.hasPrefix("rename")) && $0.contains(destination)
      },
      "no link or rename to out.sqlite3 in \(lines.suffix(20))"
    )
    // The folder's descriptors opened after the name was taken, and an fsync of one of them.
    let synced = SystemCallTrace.syncsFolder(folder, in: lines[named...])
    #expect(synced, "the folder was not synced after \(lines[named])")
  }
}
