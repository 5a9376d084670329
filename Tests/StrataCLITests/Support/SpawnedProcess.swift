import Foundation

/// A child process run with `posix_spawn`, so the test can give it any standard input, bound
/// its run time (it is killed, with its process group, and the test fails rather than hangs)
/// and read its peak memory from `wait4` (Foundation's `Process` reaps its children itself).
struct SpawnedProcess {
  let exitCode: Int32
  let standardOutput: String
  let standardError: String
  /// Peak resident set size, in bytes, from `wait4`. On Linux this is at least the test
  /// process's own peak: `posix_spawn` runs the child in the parent's memory until `exec`, and
  /// the kernel keeps that high-water mark. `measuringPeakMemory` gives the command's own.
  let peakMemoryBytes: Int
  /// False when the timeout killed it.
  let finished: Bool

  /// Runs `executable arguments…` in `directory`; standard input is `input` (an absolute
  /// path opened for reading; /dev/null by default).
  static func run(
    _ executable: String,
    _ arguments: [String],
    in directory: URL,
    input: String = "/dev/null",
    timeout: Duration = .seconds(60)
  ) throws -> SpawnedProcess {
    let output = directory.appendingPathComponent(".spawn-\(UUID().uuidString).out").path
    let errors = directory.appendingPathComponent(".spawn-\(UUID().uuidString).err").path
    defer {
      unlink(output)
      unlink(errors)
    }
    // An opaque pointer on Apple platforms, a struct on glibc: both start empty.
    #if canImport(Darwin)
    var actions: posix_spawn_file_actions_t? = nil
    #else
    var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    #if canImport(Darwin)
    var attributes: posix_spawnattr_t? = nil
    #else
    var attributes = posix_spawnattr_t()
    #endif
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // Its own process group, so a timeout kills a shell pipeline whole.
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)

    // The folder is entered by a shell that then becomes the command (`exec`): the test
    // process's own directory is shared by tests running in parallel.
    let wrapper = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, executable]
    let argv = (wrapper + arguments).map { strdup($0) } + [nil]
    let environment = ["PATH=/usr/bin:/bin", "HOME=\(directory.path)", "NO_COLOR=1"]
    let envp = environment.map { strdup($0) } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, envp)
    guard rc == 0 else { throw SpawnError("posix_spawn /bin/sh for \(executable): \(rc)") }

    var status: Int32 = 0
    var usage = rusage()
    let deadline = ContinuousClock.now + timeout
    var finished = true
    while true {
      let waited = wait4(pid, &status, WNOHANG, &usage)
      if waited == pid { break }
      if waited < 0 && errno != EINTR { throw SpawnError("wait4: \(errno)") }
      if ContinuousClock.now > deadline {
        finished = false
        kill(-pid, SIGKILL)
        _ = wait4(pid, &status, 0, &usage)
        break
      }
      usleep(5_000)
    }
    let exited = (status & 0x7F) == 0
    #if os(Linux)
    let peak = usage.ru_maxrss * 1024
    #else
    let peak = usage.ru_maxrss
    #endif
    return SpawnedProcess(
      exitCode: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
      standardOutput: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
      standardError: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "",
      peakMemoryBytes: Int(peak),
      finished: finished
    )
  }

  /// Runs `executable arguments…` under `/usr/bin/time` (GNU: `-f`), which forks a fresh
  /// process and reports its own peak resident set size; nil when there is no such tool.
  /// The report line is taken out of standard error.
  static func measuringPeakMemory(
    _ executable: String,
    _ arguments: [String],
    in directory: URL,
    timeout: Duration = .seconds(60)
  ) throws -> SpawnedProcess? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
    let marker = "strata-test-peak-kib="
    let run = try run(
      "/usr/bin/time",
      ["-f", marker + "%M", executable] + arguments,
      in: directory,
      timeout: timeout
    )
    var lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: false)
    guard let index = lines.lastIndex(where: { $0.hasPrefix(marker) }),
      let kibibytes = Int(lines[index].dropFirst(marker.count))
    else { return nil }
    lines.remove(at: index)
    // GNU time's own note on a non-zero exit.
    lines.removeAll { $0.hasPrefix("Command exited with non-zero status") }
    return SpawnedProcess(
      exitCode: run.exitCode,
      standardOutput: run.standardOutput,
      standardError: lines.joined(separator: "\n"),
      peakMemoryBytes: kibibytes * 1024,
      finished: run.finished
    )
  }

  /// Runs `script` with `/bin/sh -c`; `$STRATA` in it is the built `strata` binary.
  static func shell(
    _ script: String,
    in directory: URL,
    timeout: Duration = .seconds(60)
  ) throws -> SpawnedProcess {
    try run(
      "/bin/sh",
      ["-c", "STRATA=\"$0\"; " + script, StrataProcess.executable.path],
      in: directory,
      timeout: timeout
    )
  }
}

struct SpawnError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
