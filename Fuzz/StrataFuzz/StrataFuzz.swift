import Foundation
import StrataFuzzChecks

#if FUZZING
import LibFuzzerDriver
#endif

/// `strata-fuzz`: one fuzz target of `FuzzTarget`, two ways.
///
/// - Built by `Fuzz/run.sh` (`-sanitize=fuzzer,address -DFUZZING`), it is a libFuzzer
///   binary for the target named by `STRATA_FUZZ_TARGET`; a broken property is a crash, so the
///   fuzzer keeps the input.
/// - Built plainly, `strata-fuzz TARGET FILE...` replays inputs through the same checks and
///   exits 1 on the first broken property.
@main
struct StrataFuzz {
  static func main() {
    #if FUZZING
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    #else
    exit(replay(Array(CommandLine.arguments.dropFirst())))
    #endif
  }

  static func replay(_ arguments: [String]) -> Int32 {
    guard let name = arguments.first, let target = FuzzTarget(rawValue: name),
      arguments.count > 1
    else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
      FileHandle.standardError.write(Data("usage: strata-fuzz \(names) FILE...\n".utf8))
      return 64
    }
    for path in arguments.dropFirst() {
      guard let data = FileManager.default.contents(atPath: path) else {
        FileHandle.standardError.write(Data("strata-fuzz: cannot read \(path)\n".utf8))
        return 1
      }
      do {
        try target.check(Array(data))
      } catch {
        FileHandle.standardError.write(Data("\(path): \(error)\n".utf8))
        return 1
      }
    }
    print("\(arguments.count - 1) inputs passed the \(target.rawValue) checks")
    return 0
  }
}

#if FUZZING
/// The target, read once from `STRATA_FUZZ_TARGET`.
private let fuzzTarget: FuzzTarget = {
  let name = ProcessInfo.processInfo.environment["STRATA_FUZZ_TARGET"] ?? ""
  guard let target = FuzzTarget(rawValue: name) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    fatalError("set STRATA_FUZZ_TARGET to one of: \(names) (got '\(name)')")
  }
  return target
}()

/// libFuzzer's callback (also linked by name, for the runtime's own `main`).
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  do {
    try fuzzTarget.check(input)
  } catch {
    fatalError("\(fuzzTarget.rawValue): property broken: \(error)")
  }
  return 0
}
#endif
