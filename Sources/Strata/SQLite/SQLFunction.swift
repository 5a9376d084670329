import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// The body of an SQL function an app registers: the arguments SQLite passes, in order, and the
/// result.
///
/// - Throws: any error, which fails the statement that called the function, with the error's
///   message.
public typealias SQLFunctionBody = @Sendable ([SQLValue]) throws -> SQLValue

/// What SQLite keeps for a registered function: its body, retained until SQLite drops the
/// function (the connection closes, or the name is registered again).
private final class FunctionBox {
  let body: SQLFunctionBody
  init(_ body: @escaping SQLFunctionBody) { self.body = body }
}

extension Connection {
  /// Registers a Swift function that SQL on this connection can call, as `name(…)`: for
  /// functions an app's migrations, views or triggers need that SQLite lacks (Unicode
  /// `normalize`, base64 helpers), where loading a C extension is not possible (Apple's
  /// system SQLite offers no extension loading).
  ///
  /// A function registered with the name of a built-in one (`lower`) replaces it on this
  /// connection. A deterministic function (the same arguments always give the same result)
  /// may be used where SQLite requires it: an index on an expression, a CHECK constraint, a
  /// generated column. The function lives as long as the connection.
  ///
  /// - Parameter name: the SQL name.
  /// - Parameter argumentCount: how many arguments it takes; nil for any number.
  /// - Parameter deterministic: whether the same arguments always give the same result.
  /// - Parameter body: computes the result; an error it throws becomes the failing
  ///   statement's error, with the error's message (a `StrataError`'s `message`, a
  ///   `LocalizedError`'s `errorDescription`, otherwise its description).
  /// - Throws: `SQLiteError` when SQLite refuses the registration (a name longer than 255
  ///   bytes, more than 127 arguments).
  public func registerFunction(
    _ name: String,
    argumentCount: Int?,
    deterministic: Bool,
    _ body: @escaping SQLFunctionBody
  ) throws {
    var flags = SQLITE_UTF8
    if deterministic { flags |= SQLITE_DETERMINISTIC }
    let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
    let count = argumentCount.map { Int32(clamping: $0) } ?? -1
    // SQLite calls the destructor (which releases the box) even when the registration fails.
    let rc = sqlite3_create_function_v2(
      handle,
      name,
      count,
      flags,
      box,
      callFunction,
      nil,
      nil,
      releaseFunction
    )
    guard rc == SQLITE_OK else {
      throw SQLiteError(
        extendedCode: sqlite3_extended_errcode(handle),
        message: "cannot register the SQL function \(name): \(lastErrorMessage)"
      )
    }
  }
}

/// The C entry SQLite calls for every registered function: reads the arguments, runs the body
/// and sets the result or the error.
private func callFunction(
  _ context: OpaquePointer?,
  _ count: Int32,
  _ values: UnsafeMutablePointer<OpaquePointer?>?
) {
  guard let context, let box = sqlite3_user_data(context) else { return }
  let function = Unmanaged<FunctionBox>.fromOpaque(box).takeUnretainedValue()
  let arguments = (0..<Int(count)).map { sqlValue(of: values?[$0]) }
  do {
    setResult(try function.body(arguments), in: context)
  } catch let error as any StrataError {
    sqlite3_result_error(context, error.message, -1)
  } catch let error as LocalizedError where error.errorDescription != nil {
    sqlite3_result_error(context, error.errorDescription ?? "", -1)
  } catch {
    sqlite3_result_error(context, String(describing: error), -1)
  }
}

/// Releases a function's body when SQLite drops the function.
private func releaseFunction(_ box: UnsafeMutableRawPointer?) {
  guard let box else { return }
  Unmanaged<FunctionBox>.fromOpaque(box).release()
}

private let transientResult = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One argument of a call, as the value SQLite holds.
private func sqlValue(of value: OpaquePointer?) -> SQLValue {
  switch sqlite3_value_type(value) {
  case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
  case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
  case SQLITE_TEXT:
    guard let text = sqlite3_value_text(value) else { return .text("") }
    let length = Int(sqlite3_value_bytes(value))
    return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
  case SQLITE_BLOB:
    let length = Int(sqlite3_value_bytes(value))
    guard length > 0, let bytes = sqlite3_value_blob(value) else { return .blob([]) }
    return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
  default: return .null
  }
}

/// Sets the call's result to `value`.
private func setResult(_ value: SQLValue, in context: OpaquePointer) {
  switch value {
  case .null: sqlite3_result_null(context)
  case .integer(let number): sqlite3_result_int64(context, number)
  case .real(let number): sqlite3_result_double(context, number)
  case .text(let text) where text.isEmpty:
    sqlite3_result_text(context, "", 0, transientResult)
  case .text(let text):
    Array(text.utf8).withUnsafeBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) {
        sqlite3_result_text64(
          context,
          $0.baseAddress,
          UInt64($0.count),
          transientResult,
          UInt8(SQLITE_UTF8)
        )
      }
    }
  case .blob(let bytes) where bytes.isEmpty:
    sqlite3_result_zeroblob(context, 0)
  case .blob(let bytes):
    bytes.withUnsafeBytes {
      sqlite3_result_blob64(context, $0.baseAddress, UInt64($0.count), transientResult)
    }
  }
}
