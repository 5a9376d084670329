import Foundation
import StrataTestSupport
import Testing

/// A file strata creates is durable when strata says it is done: its content is synced before
/// it takes its name, and the folder holding the name is synced after. Seen from the system
/// calls the real binary makes, under `strace`.
// Not under a sanitizer (`.ci/sanitize`): its runtime refuses to run traced by strace.
@Suite(
  .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace")),
  .enabled(if: ProcessInfo.processInfo.environment["STRATA_SANITIZER"] == nil)
)
struct DurableOutputTests {
  @Test(arguments: [
    ["template", "--output", "out.sqlite3"], ["init", "--database", "out.sqlite3"],
  ])
  func theNewNameIsSyncedBeforeStrataSaysDone(_ arguments: [String]) throws {
    let project = try Project(threeMigrations)
    if arguments[0] == "init" {
      try #require(try project.strata("template").exitCode == 0)
    }
    let trace = project.dir.path("trace.txt")
    let result = try StrataProcess.run(
      arguments,
      in: project.dir.url,
      launcher: [
        "/usr/bin/strace", "-f", "-qq", "-o", trace.path, "-e",
        "trace=openat,fsync,fdatasync,rename,renameat,renameat2,link,linkat,close",
      ]
    )
    try #require(result.exitCode == 0, "\(result.standardError)")
    let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").map {
      // Drop the process id strace puts first.
      String($0.drop { $0.isNumber || $0 == " " })
    }
    let folder = project.dir.url.resolvingSymlinksInPath().path
    let destination = "\(folder)/out.sqlite3\""
    let named = try #require(
      lines.firstIndex {
        ($0.hasPrefix("link") || $0.hasPrefix("rename")) && $0.contains(destination)
      },
      "no link or rename to out.sqlite3 in \(lines.suffix(20))"
    )
    // The folder's descriptors opened after the name was taken, and an fsync of one of them.
    var folderDescriptors: Set<String> = []
    var synced = false
    for line in lines[named...] {
      if line.hasPrefix("openat("), line.contains("\"\(folder)\""),
        let descriptor = line.split(separator: "=").last?.trimmingCharacters(in: .whitespaces)
      {
        folderDescriptors.insert(descriptor)
      }
      if line.hasPrefix("fsync("),
        let descriptor = line.dropFirst("fsync(".count).split(separator: ")").first,
        folderDescriptors.contains(String(descriptor))
      {
        synced = true
      }
    }
    #expect(synced, "the folder was not synced after \(lines[named])")
  }
}
