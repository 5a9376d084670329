import Foundation
import Strata

/// Issue 16's real-data load: a generated file shaped like nycflights13's `flights`
/// (336,776 rows, 19 columns: ints, reals, short text, a timestamp, many missing values) into
/// typed columns with `strata seed --mode append`, against `sqlite3 .import` of the same file
/// in the same run; then the same file gzipped (`flights.csv.gz`, inflated while read) against
/// the same `.import` of the plain file; then strata's peak memory on the gzipped file.
///
/// Missing values are written as empty fields by default. `STRATA_BENCH_FLIGHTS_NA=1` writes
/// them as `NA` instead and passes `--null NA` (the null-token option);
/// `STRATA_BENCH_FLIGHTS_ROWS` changes the row count.
enum FlightsBenchmark {
  static let runs = 3

  static let schema = """
    CREATE TABLE flights (
      year INTEGER, month INTEGER, day INTEGER, dep_time INTEGER, sched_dep_time INTEGER,
      dep_delay REAL, arr_time INTEGER, sched_arr_time INTEGER, arr_delay REAL,
      carrier TEXT, flight INTEGER, tailnum TEXT, origin TEXT, dest TEXT, air_time REAL,
      distance REAL, hour INTEGER, minute INTEGER, time_hour TEXT
    );
    """

  static func run() throws {
    let environment = ProcessInfo.processInfo.environment
    let rows = environment["STRATA_BENCH_FLIGHTS_ROWS"].flatMap { Int($0) } ?? 336_776
    let missing = environment["STRATA_BENCH_FLIGHTS_NA"] == "1" ? "NA" : ""
    let folder = try Bench.scratch("flights")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bytes = try writeFlights(
      rows: rows,
      missing: missing,
      to: folder.appendingPathComponent("flights.csv")
    )
    _ = try Bench.run("/bin/sh", ["-c", "gzip -k -f flights.csv"], in: folder)
    let gzipped =
      try FileManager.default.attributesOfItem(
        atPath: folder.appendingPathComponent("flights.csv.gz").path
      )[.size] as? Int ?? 0
    let missingWords = missing.isEmpty ? "empty fields" : "NA, with --null NA"
    print(
      "seed-flights: \(rows) rows x 19 columns (\(bytes / 1_000_000) MB CSV, "
        + "\(gzipped / 1_000_000) MB gzipped; missing values as \(missingWords)), median of "
        + "\(runs) runs, empty table in a fresh database each run"
    )
    let nullArguments = missing.isEmpty ? [] : ["--null", missing]
    func strata(_ file: String, _ run: Int) throws -> Double {
      let database = try freshDatabase("strata-\(file)-\(run).sqlite3", in: folder)
      return try Bench.run(
        Bench.strata,
        ["seed", file, "--mode", "append", "--database", database, "--quiet"] + nullArguments,
        in: folder
      )
    }
    let plain = try Bench.median(runs: runs) { try strata("flights.csv", $0) }
    let compressed = try Bench.median(runs: runs) { try strata("flights.csv.gz", $0) }
    let sqlite = try Bench.median(runs: runs) { run in
      let database = try freshDatabase("sqlite\(run).sqlite3", in: folder)
      return try Bench.run(
        "/usr/bin/sqlite3",
        [database, ".import --csv --skip 1 flights.csv flights"],
        in: folder
      )
    }
    print(
      "  strata seed flights.csv      \(Bench.format(plain))   sqlite3 .import --csv --skip 1   "
        + "\(Bench.format(sqlite))" + String(format: "   ratio %.2fx", plain / sqlite)
    )
    print(
      "  strata seed flights.csv.gz   \(Bench.format(compressed))   (same .import of the plain "
        + "file)" + String(format: "   ratio %.2fx", compressed / sqlite)
    )
    let database = try freshDatabase("peak.sqlite3", in: folder)
    let (seconds, peakKiB) = try SeedBenchmark.peakMemory(
      Bench.strata,
      ["seed", "flights.csv.gz", "--mode", "append", "--database", database, "--quiet"]
        + nullArguments,
      in: folder
    )
    print(
      "  peak memory, strata seed flights.csv.gz: "
        + String(format: "%.1f MiB", Double(peakKiB) / 1024) + " RSS in \(Bench.format(seconds))"
    )
  }

  /// Writes the flights-shaped CSV; returns its size. About one row in forty lacks its times
  /// and delays (a cancelled flight), one in a hundred its tail number.
  static func writeFlights(rows: Int, missing: String, to url: URL) throws -> Int {
    let carriers = ["UA", "AA", "B6", "DL", "EV", "MQ", "US", "WN", "VX", "FL", "AS", "9E"]
    let airports = ["EWR", "LGA", "JFK"]
    let destinations = ["IAH", "MIA", "BQN", "ATL", "ORD", "FLL", "IAD", "MCO", "PBI", "TPA"]
    let header =
      "year,month,day,dep_time,sched_dep_time,dep_delay,arr_time,sched_arr_time,arr_delay,"
      + "carrier,flight,tailnum,origin,dest,air_time,distance,hour,minute,time_hour\n"
    return try SeedBenchmark.writeRows(rows, header: header, to: url) { row in
      let month = row * 12 / max(rows, 1) + 1
      let day = row % 28 + 1
      let scheduled = 500 + row * 7 % 1800
      let hour = scheduled / 100
      let minute = scheduled % 100 % 60
      let delay = row * 13 % 97 - 20
      let cancelled = row % 40 == 7
      let departure = cancelled ? missing : String(scheduled + delay)
      let arrival = cancelled ? missing : String((scheduled + 230 + delay) % 2400)
      let arrivalDelay = cancelled ? missing : String(Double(delay * 2 - 11))
      let airTime = cancelled ? missing : String(Double(40 + row % 300))
      let tail = row % 100 == 3 ? missing : "N\(10000 + row % 4000)"
      return "2013,\(month),\(day),\(departure),\(scheduled),"
        + "\(cancelled ? missing : String(Double(delay))),\(arrival),\((scheduled + 230) % 2400),"
        + "\(arrivalDelay),\(carriers[row % carriers.count]),\(1 + row % 6000),\(tail),"
        + "\(airports[row % 3]),\(destinations[row % destinations.count]),\(airTime),"
        + "\(Double(200 + row % 2500)),\(hour),\(minute),"
        + String(format: "2013-%02d-%02d %02d:00:00\n", month, day, hour)
    }
  }

  static func freshDatabase(_ name: String, in folder: URL) throws -> String {
    try SeedBenchmark.freshDatabase(name, in: folder, schema: schema)
  }
}
