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
}
