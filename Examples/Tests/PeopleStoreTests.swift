import Foundation
import PeopleStoreExample
import Strata
import Testing

@Suite struct PeopleStoreTests {
  @Test func firstLaunchCopiesTheTemplateAndLoadsTheKeylessTableOnce() async throws {
    let scenario = try AppScenario()
    let store = try await PeopleStore.launch(documents: scenario.documents)
    #expect(store.queue.setupReport?.templateCopied == true)
    #expect(
      try await store.people() == [Person(name: "Peter", age: 22), Person(name: "Mary", age: 31)]
    )
  }

  @Test func tasksShareTheQueue() async throws {
    let scenario = try AppScenario()
    let store = try await PeopleStore.launch(documents: scenario.documents)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<20 {
        group.addTask {
          try await store.add(Person(name: "Task \(index)", age: index % 3 == 0 ? nil : index))
        }
      }
      try await group.waitForAll()
    }
    let people = try await store.people()
    #expect(people.count == 22)
    #expect(people.filter { $0.name.hasPrefix("Task") && $0.age == nil }.count == 7)
  }

  @Test func aSecondLaunchWritesNothingAndLoadsNoPersonTwice() async throws {
    let scenario = try AppScenario()
    let first = try await PeopleStore.launch(documents: scenario.documents)
    try await first.add(Person(name: "Lin", age: nil))
    first.queue.close()
    let before = try scenario.files(named: "test.db")

    let second = try await PeopleStore.launch(documents: scenario.documents)
    #expect(second.queue.setupReport?.changedAnything == false)
    #expect(try await second.people().map(\.name) == ["Peter", "Mary", "Lin"])
    second.queue.close()
    #expect(try scenario.files(named: "test.db") == before)
  }

  @Test func anUpdateRefusesAChangedKeylessFileUntilItIsMarkedToBeReloaded() async throws {
    let scenario = try AppScenario()
    let first = try await PeopleStore.launch(documents: scenario.documents)
    try await first.add(Person(name: "Lin", age: nil))
    first.queue.close()
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
    try scenario.write("name,age\nPeter,23\nMary,31\nJoy,40\n", to: "person_info.csv", in: seeds)
    // Without a word, a changed file for a table without a key is refused: strata cannot
    // tell the bundled people from the user's. No seed row is written; the migration before
    // the seed step committed, and the error says so.
    await #expect {
      _ = try await PeopleStore.launch(
        documents: scenario.documents,
        migrations: migrations,
        seeds: seeds
      )
    } throws: { error in
      guard case SetupError.seedingFailed(_, false, 2, let cause) = error,
        case SeedError.keylessFileChanged(_, let table) = cause
      else { return false }
      return table == "person_info"
        && (error as? any StrataError)?.help.contains("Mark the file to be reloaded") == true
        && error.localizedDescription.contains("no seed rows were written")
    }

    // The update marks the file to be reloaded: its old rows are replaced, the user's stay.
    let settings = scenario.root.appendingPathComponent("update/strata.toml")
    try scenario.write(
      "[seeds.\"person_info.csv\"]\nreload = true\n",
      to: "strata.toml",
      in: settings.deletingLastPathComponent()
    )
    let updated = try await PeopleStore.launch(
      documents: scenario.documents,
      migrations: migrations,
      seeds: seeds,
      settings: settings
    )
    #expect(updated.queue.setupReport?.seedFilesLoaded.count == 1)
    #expect(
      try await updated.people() == [
        Person(name: "Lin", age: nil), Person(name: "Peter", age: 23),
        Person(name: "Mary", age: 31),
        Person(name: "Joy", age: 40),
      ]
    )
  }
}
