import Foundation
import Strata
import StudentStoreExample
import Testing

@Suite struct StudentStoreTests {
  @Test func firstLaunchLoadsTheBundledStudentsAndTheStoreWorks() async throws {
    let scenario = try AppScenario()
    let store = try await StudentStore.launch(documents: scenario.documents)
    #expect(store.queue.setupReport?.created == true)
    #expect(try store.studentsByName().map(\.stuID) == ["S001", "S002", "S003"])

    try store.save(Student(stuID: "S004", stuName: "Abe Moss", stuAge: 25))
    try store.save(Student(stuID: "S002", stuName: "Bo Chen", stuAge: 23))
    #expect(try store.load(stuID: "S002")?.stuAge == 23)
    #expect(try store.load(stuID: "S404") == nil)
    try store.delete(stuID: "S003")
    #expect(try store.studentsByName().map(\.stuName) == ["Abe Moss", "Ann Lee", "Bo Chen"])
    #expect(try store.studentsByAge().map(\.stuID) == ["S001", "S002", "S004"])
  }

  @Test func aSecondLaunchFindsEverythingUpToDateAndWritesNothing() async throws {
    let scenario = try AppScenario()
    let first = try await StudentStore.launch(documents: scenario.documents)
    try first.save(Student(stuID: "S004", stuName: "Abe Moss", stuAge: 25))
    first.queue.close()
    let before = try scenario.files(named: "students.sqlite3")

    let second = try await StudentStore.launch(documents: scenario.documents)
    #expect(second.queue.setupReport?.changedAnything == false)
    second.queue.close()
    #expect(try scenario.files(named: "students.sqlite3") == before)
  }

  @Test func anUpdateAppliesItsMigrationAndSyncsTheSeedsAroundTheUsersEdits() async throws {
    let scenario = try AppScenario()
    let first = try await StudentStore.launch(documents: scenario.documents)
    try first.save(Student(stuID: "S002", stuName: "Bo Chen", stuAge: 30))  // the user's edit
    try first.delete(stuID: "S003")  // the user's deletion
    first.queue.close()

    // The next release: one more migration, and a seed file that renames S001, changes S002
    // and S003, and adds S005.
    let migrations = try scenario.update(
      copying: DatabaseSetup.resource("migrations", in: StudentStore.bundle),
      as: "migrations"
    )
    try scenario.write(
      "-- migrate:up\nCREATE INDEX student_by_age ON student (stuAge);\n\n"
        + "-- migrate:down\nDROP INDEX student_by_age;\n",
      to: "0002_index_student_age.sql",
      in: migrations
    )
    let seeds = try scenario.update(
      copying: DatabaseSetup.resource("seeds", in: StudentStore.bundle),
      as: "seeds"
    )
    try scenario.write(
      "stuID,stuName,stuAge\nS001,Ann Lee-Park,20\nS002,Bo Chen,21\nS003,Cara Diaz,20\n"
        + "S005,Dan Ito,18\n",
      to: "student.csv",
      in: seeds
    )

    let updated = try await StudentStore.launch(
      documents: scenario.documents,
      migrations: migrations,
      seeds: seeds
    )
    #expect(updated.queue.setupReport?.appliedVersions == [2])
    #expect(
      try updated.studentsByName() == [
        Student(stuID: "S001", stuName: "Ann Lee-Park", stuAge: 20),  // the file's change
        Student(stuID: "S002", stuName: "Bo Chen", stuAge: 30),  // the user's edit kept
        Student(stuID: "S005", stuName: "Dan Ito", stuAge: 18),  // new in the file
      ]
    )  // S003 stays deleted
  }
}
