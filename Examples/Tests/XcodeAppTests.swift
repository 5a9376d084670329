import Foundation
import Strata
import Testing

@testable import PeopleAppExample

/// The Xcode-shaped app (Examples/XcodeApp) as far as Linux goes: its launch code
/// (`AppDatabase.open`, which the SwiftUI `.task` awaits) against a fresh Documents folder,
/// with its resources as the package target bundles them: `migrations` and `seeds` as folders,
/// `template.sqlite3` built by the plugin at the bundle's top, where an Xcode app target has
/// it too. The app passes nothing and gets `Bundle.main`; these tests pass the SwiftPM build's
/// bundle (`Bundle.module`, internal to the target, hence `@testable`).
@Suite struct XcodeAppTests {
  let bundle = Bundle.module

  @Test func theBundleHasTheBuiltTemplateAtItsTopAndTheFoldersAsFolders() throws {
    let template = try DatabaseSetup.resource("template", withExtension: "sqlite3", in: bundle)
    #expect(template.deletingLastPathComponent().path == bundle.resourceURL?.path)
    let queue = try DatabaseQueue(url: template)
    defer { queue.close() }
    let versions = try queue.read { db in
      try db.fetchValue(
        String.self,
        "SELECT group_concat(version, ',') FROM (SELECT version FROM strata_migrations ORDER BY 1)"
      )
    }
    #expect(versions == "1")
    for folder in ["migrations", "seeds"] {
      var isFolder: ObjCBool = false
      let url = try DatabaseSetup.resource(folder, in: bundle)
      #expect(FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder))
      #expect(isFolder.boolValue, "\(folder) is bundled as a folder")
    }
  }

  @Test func firstLaunchCopiesTheTemplateAndLoadsThePeopleIntoTheFile() async throws {
    let scenario = try AppScenario()
    let database = try await AppDatabase.open(documents: scenario.documents, bundle: bundle)
    let report = try #require(database.queue.setupReport)
    #expect(report.templateCopied)
    #expect(report.version == 1)
    let loaded = report.seedFilesLoaded.map { URL(fileURLWithPath: $0).lastPathComponent }
    #expect(loaded == ["person_info.csv"])
    try await database.add(Person(name: "Lin", age: nil))
    database.queue.close()

    // The rows are in the file in Documents, read by a connection of its own.
    let file = scenario.documents.appendingPathComponent("people.sqlite3")
    let reader = try DatabaseQueue(url: file)
    defer { reader.close() }
    let people = try await reader.read { db in
      try db.fetchAll(Person.self, "SELECT name, age FROM person_info ORDER BY rowid")
    }
    #expect(
      people == [
        Person(name: "Peter", age: 22), Person(name: "Mary", age: 31),
        Person(name: "Lin", age: nil),
      ]
    )
  }

  @Test func aSecondLaunchWritesNothingAndLoadsNoPersonTwice() async throws {
    let scenario = try AppScenario()
    let first = try await AppDatabase.open(documents: scenario.documents, bundle: bundle)
    first.queue.close()
    let before = try scenario.files(named: "people.sqlite3")

    let second = try await AppDatabase.open(documents: scenario.documents, bundle: bundle)
    #expect(second.queue.setupReport?.changedAnything == false)
    #expect(try await second.people().map(\.name) == ["Peter", "Mary"])
    second.queue.close()
    #expect(try scenario.files(named: "people.sqlite3") == before)
  }

  /// What `.task {}` does: awaited from the main actor, the setup runs elsewhere, so the main
  /// actor (the UI) stays free meanwhile: a job sent to it while the setup reports its first
  /// step runs before that step goes on. Were the setup on the main actor, the job would wait
  /// for it, and the report would time out.
  @MainActor @Test func theLaunchAwaitedFromTheMainActorLeavesTheMainActorFree() async throws {
    let scenario = try AppScenario()
    let answers = MainActorAnswers()
    let database = try await AppDatabase.open(documents: scenario.documents, bundle: bundle) {
      _ in answers.askOnce()
    }
    database.queue.close()
    #expect(answers.all == [true], "the main actor was busy while the setup ran")
  }

  /// An Xcode synchronized folder copies the files of `migrations` and `seeds` loose into the
  /// app's bundle (unless its Build Rules say Apply Once to Folder): the launch says so, and
  /// creates nothing.
  @Test func aBundleWithTheFoldersFlattenedIsExplainedAtLaunch() async throws {
    let scenario = try AppScenario()
    let app = scenario.root.appendingPathComponent("PeopleApp.app")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    for folder in ["migrations", "seeds"] {
      let bundled = try DatabaseSetup.resource(folder, in: bundle)
      for name in try FileManager.default.contentsOfDirectory(atPath: bundled.path) {
        try FileManager.default.copyItem(
          at: bundled.appendingPathComponent(name),
          to: app.appendingPathComponent(name)
        )
      }
    }
    try FileManager.default.copyItem(
      at: DatabaseSetup.resource("template", withExtension: "sqlite3", in: bundle),
      to: app.appendingPathComponent("template.sqlite3")
    )
    let flattened = try #require(Bundle(path: app.path))

    let error = await #expect(throws: SetupError.self) {
      _ = try await AppDatabase.open(documents: scenario.documents, bundle: flattened)
    }
    guard case .folderFlattened(let name, _, let loose) = error else {
      Issue.record("expected folderFlattened, got \(String(describing: error))")
      return
    }
    #expect(name == "migrations")
    #expect(loose.contains("0001_create_person_info.sql"))
    #expect(error?.help.contains("folder reference") == true)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scenario.documents.path).isEmpty)
  }
}

/// Whether the main actor ran a job while the setup was reporting its first step.
private final class MainActorAnswers: @unchecked Sendable {
  private let lock = NSLock()
  private var answers: [Bool] = []

  func askOnce() {
    lock.lock()
    let asked = !answers.isEmpty
    lock.unlock()
    guard !asked else { return }
    let ran = DispatchSemaphore(value: 0)
    Task { @MainActor in ran.signal() }
    let answer = ran.wait(timeout: .now() + 10) == .success
    lock.lock()
    answers.append(answer)
    lock.unlock()
  }

  var all: [Bool] {
    lock.lock()
    defer { lock.unlock() }
    return answers
  }
}
