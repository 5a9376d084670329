import Foundation
import Strata
import StrataTestSupport
import Testing

/// A seed file that can be read only once (a FIFO here) through the library (issue 10,
/// item 13): header, rows and checksum in one pass, and `onlyUnrecorded` decided after it.
@Suite struct SeederStreamTests {
  /// Seeds `file` (a FIFO) while another thread writes `text` into it once. If the seeder
  /// opened the FIFO a second time it would block: after 20 s a watchdog opens it for
  /// writing and closes it, so the test fails (the second read sees an empty file) rather
  /// than hangs.
  func seedThroughFIFO(
    _ fixture: SeedFixture,
    _ text: String,
    options: SeedOptions
  ) throws -> SeedReport {
    let path = fixture.folder.path("people-\(UUID().uuidString).fifo").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    let writer = Thread {
      // A reader that stops early gives EPIPE here, not a SIGPIPE that ends the test run.
      var pipeSignal = sigset_t()
      sigemptyset(&pipeSignal)
      sigaddset(&pipeSignal, SIGPIPE)
      pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
      let descriptor = open(path, O_WRONLY)
      guard descriptor >= 0 else { return }
      let bytes = Array(text.utf8)
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes {
          write(descriptor, $0.baseAddress, $0.count)
        }
        if written <= 0 { break }
        offset += written
      }
      close(descriptor)
    }
    writer.start()
    let finished = DispatchSemaphore(value: 0)
    let watchdog = Thread {
      if finished.wait(timeout: .now() + 20) == .timedOut {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK)
        if descriptor >= 0 { close(descriptor) }
      }
    }
    watchdog.start()
    defer { finished.signal() }
    let file = SeedFile(url: URL(fileURLWithPath: path), table: "person_info")
    return try fixture.seeder.seed([file], options: options)
  }

  func people(_ fixture: SeedFixture) throws -> Int64? {
    try fixture.connection.scalar("SELECT count(*) FROM person_info")?.integerValue
  }

  @Test func aFIFOLoadsOnceAndIsRecognisedByItsChecksumNextTime() throws {
    let fixture = try SeedFixture()
    var text = "name,age\n"
    for row in 1...30_000 { text += "Person \(row),\(row % 80)\n" }
    let options = SeedOptions(mode: .append, onlyUnrecorded: true)

    let first = try seedThroughFIFO(fixture, text, options: options)
    #expect(first.inserted == 30_000)
    #expect(first.tables.first?.alreadyRecorded == false)
    #expect(try people(fixture) == 30_000)

    // The same bytes again: loaded inside a savepoint, recognised, undone.
    let second = try seedThroughFIFO(fixture, text, options: options)
    #expect(second.tables.first?.alreadyRecorded == true)
    #expect(second.inserted == 0)
    #expect(try people(fixture) == 30_000)
    #expect(try fixture.seeder.ledger().count == 1)

    // Different bytes load.
    let third = try seedThroughFIFO(fixture, "name,age\nZed,40\n", options: options)
    #expect(third.inserted == 1)
    #expect(try people(fixture) == 30_001)
    #expect(try fixture.seeder.ledger().count == 2)
  }
}
