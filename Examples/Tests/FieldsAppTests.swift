import FieldsAppExample
import Foundation
import Strata
import Testing

@Suite struct FieldsAppTests {
  @Test func fieldsSavedOnBackgroundAreThereAtTheNextLaunch() async throws {
    let scenario = try AppScenario()
    let first = try await FieldsApp.launch(documents: scenario.documents)
    #expect(try first.loadFields() == [nil, nil, nil, nil])
    #expect(try first.labels() == ["Name", "Street", "City", "Phone"])
    try first.saveOnBackground(["Ann", "1 Main St", nil, "555-0100"])
    first.queue.close()
    let before = try scenario.files(named: "fields.sqlite3")

    let second = try await FieldsApp.launch(documents: scenario.documents)
    #expect(second.queue.setupReport?.changedAnything == false)
    #expect(try second.loadFields() == ["Ann", "1 Main St", nil, "555-0100"])
    second.queue.close()
    #expect(try scenario.files(named: "fields.sqlite3") == before)
  }

  @Test func anUpdateKeepsTheSavedFieldsAndTakesTheNewLabels() async throws {
    let scenario = try AppScenario()
    let first = try await FieldsApp.launch(documents: scenario.documents)
    try first.saveOnBackground(["Ann", nil, "Oslo", nil])
    first.queue.close()
    let migrations = try scenario.update(
      copying: DatabaseSetup.resource("migrations", in: FieldsApp.bundle),
      as: "migrations"
    )
    try scenario.write(
      "-- migrate:up\nALTER TABLE FIELDS ADD COLUMN SAVED_AT TEXT;\n\n"
        + "-- migrate:down\nALTER TABLE FIELDS DROP COLUMN SAVED_AT;\n",
      to: "0002_fields_saved_at.sql",
      in: migrations
    )
    let seeds = try scenario.update(
      copying: DatabaseSetup.resource("seeds", in: FieldsApp.bundle),
      as: "seeds"
    )
    try scenario.write(
      "ROW,LABEL\n0,Name\n1,Address\n2,City\n3,Phone\n",
      to: "FIELD_LABELS.csv",
      in: seeds
    )

    let updated = try await FieldsApp.launch(
      documents: scenario.documents,
      migrations: migrations,
      seeds: seeds
    )
    #expect(updated.queue.setupReport?.appliedVersions == [2])
    #expect(try updated.loadFields() == ["Ann", nil, "Oslo", nil])
    #expect(try updated.labels() == ["Name", "Address", "City", "Phone"])
  }
}
