import Foundation
import PeopleStoreExample
import Strata
import Testing

/// The FMDB article's app across an update: version 1 launches with its bundled people, the
/// user edits one and adds one, then version 2 (a new migration, a new person in
/// `person_info.csv`, a table without a key) launches on the same Documents folder. Only the
/// app's launch call and its queue are used.
@Suite struct PeopleStoreUpdateTests {
  /// Every person, by rowid, as (name, age).
  func people(_ queue: DatabaseQueue) async throws -> [[SQLValue]] {
    try await queue.read { db in
      try db.fetchRows("SELECT name, age FROM person_info ORDER BY rowid").map(\.values)
    }
  }

  /// Version 1's first launch; the user changes Peter's age and adds Lin.
  func launchVersion1AndEdit(_ scenario: AppScenario) async throws {
    let store = try await PeopleStore.launch(documents: scenario.documents)
    try await store.queue.write { db in
      try db.execute("UPDATE person_info SET age = 23 WHERE name = 'Peter'")
      try db.execute("INSERT INTO person_info (name, age) VALUES ('Lin', NULL)")
    }
    store.queue.close()
  }

  /// Version 2's bundle: the app's migrations and seeds copied, plus a migration, and
  /// `person_info.csv` as `people` (its header then lines).
  func version2(_ scenario: AppScenario, people: String) throws -> (URL, URL) {
    let migrations = try scenario.update(
      copying: DatabaseSetup.resource("migrations", in: PeopleStore.bundle),
      as: "migrations"
    )
    try scenario.write(
      "-- migrate:up\nCREATE INDEX person_by_name ON person_info (name);\n\n"
        + "-- migrate:down\nDROP INDEX person_by_name;\n",
      to: "0002_index_person_name.sql",
      in: migrations
    )
    let seeds = try scenario.update(
      copying: DatabaseSetup.resource("seeds", in: PeopleStore.bundle),
      as: "seeds"
    )
    try scenario.write(people, to: "person_info.csv", in: seeds)
    return (migrations, seeds)
  }

  @Test func anUpdateTakesANewPersonAndKeepsTheUsersEdits() async throws {
    let scenario = try AppScenario()
    try await launchVersion1AndEdit(scenario)
    let bundled = try String(
      contentsOf: DatabaseSetup.resource("seeds", in: PeopleStore.bundle)
        .appendingPathComponent("person_info.csv"),
      encoding: .utf8
    )
    #expect(bundled == "name,age\nPeter,22\nMary,31\n")
    let (migrations, seeds) = try version2(scenario, people: bundled + "Joy,40\n")

    let updated = try await PeopleStore.launch(
      documents: scenario.documents,
      migrations: migrations,
      seeds: seeds
    )
    let report = try #require(updated.queue.setupReport)
    #expect(report.appliedVersions == [2])
    #expect(report.seedFilesLoaded.count == 1)
    // Joy is in; Peter keeps the user's age (the file's Peter,22 is not added again); Lin stays.
    #expect(
      try await people(updated.queue) == [
        [.text("Peter"), .integer(23)], [.text("Mary"), .integer(31)], [.text("Lin"), .null],
        [.text("Joy"), .integer(40)],
      ]
    )
    updated.queue.close()

    // The same version launched again changes nothing.
    let again = try await PeopleStore.launch(
      documents: scenario.documents,
      migrations: migrations,
      seeds: seeds
    )
    #expect(again.queue.setupReport?.changedAnything == false)
    #expect(try await people(again.queue).count == 4)
    again.queue.close()
  }

  /// Version 2 drops both bundled people: Mary, as bundled, goes; Peter, whom the user
  /// edited, stays as the user left him; the user's Lin stays.
  @Test func anUpdateThatDropsBundledPeopleKeepsTheOneTheUserEdited() async throws {
    let scenario = try AppScenario()
    try await launchVersion1AndEdit(scenario)
    let (migrations, seeds) = try version2(scenario, people: "name,age\nJoy,40\n")
    let updated = try await PeopleStore.launch(
      documents: scenario.documents,
      migrations: migrations,
      seeds: seeds
    )
    #expect(
      try await people(updated.queue) == [
        [.text("Peter"), .integer(23)], [.text("Lin"), .null], [.text("Joy"), .integer(40)],
      ]
    )
    updated.queue.close()
  }
}
