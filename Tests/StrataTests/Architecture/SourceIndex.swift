import Foundation

/// Which top-level folder of a module's sources declares each name, and where each folder names
/// what another folder declares: what `ArchitectureTests` checks against its layer table.
///
/// It reads Swift text, not a syntax tree: comments and the literal parts of strings are
/// skipped (an interpolation's code is read), and it indexes only what another file can name
/// without a type in front of it: types, functions, and `let`/`var`s declared outside any
/// braces, that are not `private` or `fileprivate`. A member that an `extension` adds to
/// another folder's type is indexed too, when no other member anywhere has its name, and is
/// counted where it is named after a dot. A lowercase function counts only where it is called
/// (its name before `(` or `{`), so that a local value of the same name is not taken for it.
struct SourceIndex {
  /// One place where a folder names something another folder declares.
  struct Reference: Hashable {
    /// The file, relative to the sources folder.
    let file: String
    let line: Int
    /// The folder the file is in (its first path component).
    let folder: String
    /// The name, and the folder that declares it.
    let name: String
    let declaringFolder: String
  }

  /// Each folder's files, relative paths, and their text.
  private let files: [(path: String, folder: String, text: String)]

  /// Reads every `.swift` file under `root`.
  init(root: URL) throws {
    var found: [(String, String, String)] = []
    let enumerator = FileManager.default.enumerator(
      at: root,
      includingPropertiesForKeys: nil
    )
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let path = String(
        url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)
      )
      found.append((path, Self.folder(of: path), try String(contentsOf: url, encoding: .utf8)))
    }
    files = found.sorted { $0.0 < $1.0 }
  }

  /// Indexes the given files (relative path and text), for the index's own tests.
  init(files: [(path: String, text: String)]) {
    self.files = files.map { ($0.path, Self.folder(of: $0.path), $0.text) }
  }

  /// A file's top-level folder; "" for a file at the top of the sources folder.
  static func folder(of path: String) -> String {
    let parts = path.split(separator: "/")
    return parts.count > 1 ? String(parts[0]) : ""
  }

  /// The top-level folders that hold Swift files ("" for files at the top).
  var folders: Set<String> { Set(files.map(\.folder)) }

  /// The files at the top of the sources folder, in no folder.
  var filesOutsideFolders: [String] { files.filter { $0.folder.isEmpty }.map(\.path) }

  /// Every reference from one folder to a name another folder declares.
  func references() -> [Reference] {
    let tokenized = files.map { (file: $0, tokens: SwiftTokens(text: $0.text).tokens) }
    var topLevel: [String: Set<String>] = [:]
    var memberCounts: [String: Int] = [:]
    var lowercaseFunctions: Set<String> = []
    var ownMembers: [String: Set<String>] = [:]
    var nestedTypes: [String: Set<String>] = [:]
    for (file, tokens) in tokenized {
      let declarations = Self.declarations(in: tokens)
      for declaration in declarations {
        if case .member = declaration.scope {
          ownMembers[file.path, default: []].insert(declaration.name)
          if declaration.isType { nestedTypes[file.folder, default: []].insert(declaration.name) }
        }
        switch declaration.scope {
        case .topLevel:
          topLevel[declaration.name, default: []].insert(file.folder)
          if declaration.isFunction, declaration.name.first?.isLowercase == true {
            lowercaseFunctions.insert(declaration.name)
          }
        case .member:
          memberCounts[declaration.name, default: 0] += 1
        }
      }
    }
    // An extension member counts when its name is a member nowhere else, and the type it
    // extends is declared in another folder than the extension.
    var members: [String: String] = [:]
    for (file, tokens) in tokenized {
      for declaration in Self.declarations(in: tokens) {
        guard case .member(let extended?) = declaration.scope,
          memberCounts[declaration.name] == 1, topLevel[declaration.name] == nil,
          let typeFolders = topLevel[extended], !typeFolders.contains(file.folder)
        else { continue }
        members[declaration.name] = file.folder
      }
    }
    var found: [Reference] = []
    for (file, tokens) in tokenized {
      for (index, token) in tokens.enumerated() {
        guard case .identifier(let name) = token.kind else { continue }
        let previous = index > 0 ? tokens[index - 1].kind : nil
        let next = index + 1 < tokens.count ? tokens[index + 1].kind : nil
        if previous == .punctuation(".") {
          if let folder = members[name], folder != file.folder {
            found.append(
              Reference(
                file: file.path,
                line: token.line,
                folder: file.folder,
                name: name,
                declaringFolder: folder
              )
            )
          }
          continue
        }
        guard let declaring = topLevel[name], !declaring.contains(file.folder) else { continue }
        if case .identifier(let keyword) = previous, Self.declaringKeywords.contains(keyword) {
          continue
        }
        if name.first?.isLowercase == true {
          if next == .punctuation(":") { continue }  // an argument label
          if lowercaseFunctions.contains(name), next != .punctuation("(") { continue }
          // A member or local of the same name in the file is what the name means there.
          if ownMembers[file.path]?.contains(name) == true { continue }
        } else if nestedTypes[file.folder]?.contains(name) == true {
          continue  // the folder's own nested type (`Schema.Database`), not the other folder's
        }
        for folder in declaring.sorted() {
          found.append(
            Reference(
              file: file.path,
              line: token.line,
              folder: file.folder,
              name: name,
              declaringFolder: folder
            )
          )
        }
      }
    }
    return found
  }

  private static let declaringKeywords: Set<String> = [
    "func", "var", "let", "case", "struct", "class", "enum", "protocol", "actor", "typealias",
    "associatedtype",
  ]
  private static let typeKeywords: Set<String> = [
    "struct", "class", "enum", "protocol", "actor", "typealias",
  ]

  private enum Scope {
    case topLevel
    /// A member, and the type named by the `extension` it is directly in, if it is in one.
    case member(extending: String?)
  }

  private struct Declaration {
    let name: String
    let scope: Scope
    let isFunction: Bool
    let isType: Bool
  }

  /// The names a file declares: outside any braces (not private), or as members.
  private static func declarations(in tokens: [SwiftTokens.Token]) -> [Declaration] {
    var found: [Declaration] = []
    var depth = 0
    var extensionAtDepthZero: String?
    var pendingExtension: String?
    for (index, token) in tokens.enumerated() {
      switch token.kind {
      case .punctuation("{"):
        if depth == 0 { extensionAtDepthZero = pendingExtension }
        pendingExtension = nil
        depth += 1
      case .punctuation("}"):
        depth -= 1
        if depth == 0 { extensionAtDepthZero = nil }
      case .identifier("extension") where depth == 0:
        if index + 1 < tokens.count, case .identifier(let name) = tokens[index + 1].kind {
          pendingExtension = name
        }
      case .identifier(let keyword)
      where typeKeywords.contains(keyword) || ["func", "let", "var"].contains(keyword):
        guard index + 1 < tokens.count, case .identifier(let name) = tokens[index + 1].kind
        else { continue }
        if depth == 0 {
          if isPrivate(tokens, before: index) { continue }
          found.append(
            Declaration(
              name: name,
              scope: .topLevel,
              isFunction: keyword == "func",
              isType: typeKeywords.contains(keyword)
            )
          )
        } else {
          let extending = depth == 1 ? extensionAtDepthZero : nil
          found.append(
            Declaration(
              name: name,
              scope: .member(extending: extending),
              isFunction: keyword == "func",
              isType: typeKeywords.contains(keyword)
            )
          )
        }
      default:
        continue
      }
    }
    return found
  }

  /// Whether the modifiers before the keyword at `index` make it private to its file.
  private static func isPrivate(_ tokens: [SwiftTokens.Token], before index: Int) -> Bool {
    var position = index - 1
    while position >= 0, case .identifier(let word) = tokens[position].kind,
      tokens[position].line == tokens[index].line
    {
      if word == "private" || word == "fileprivate" { return true }
      position -= 1
    }
    return false
  }
}

/// Swift text as identifiers and punctuation with their lines; comments, the literal parts of
/// strings, numbers and white space dropped. An interpolation's code is kept.
struct SwiftTokens {
  struct Token {
    enum Kind: Equatable {
      case identifier(String)
      case punctuation(Character)
    }
    let kind: Kind
    let line: Int
  }

  private(set) var tokens: [Token] = []

  init(text: String) {
    let characters = Array(text.unicodeScalars)
    var lexer = Lexer(characters: characters)
    lexer.code(until: nil)
    tokens = lexer.tokens
  }

  private struct Lexer {
    let characters: [Unicode.Scalar]
    var position = 0
    var line = 1
    var tokens: [Token] = []

    init(characters: [Unicode.Scalar]) { self.characters = characters }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
      position + offset < characters.count ? characters[position + offset] : nil
    }

    mutating func advance() {
      if characters[position] == "\n" { line += 1 }
      position += 1
    }

    /// Reads code until the `)` that closes an interpolation (when `closing` is set) or the end.
    mutating func code(until closing: Character?) {
      var parentheses = 0
      while let scalar = peek() {
        if scalar == "/" && peek(1) == "/" {
          while let next = peek(), next != "\n" { advance() }
        } else if scalar == "/" && peek(1) == "*" {
          blockComment()
        } else if scalar == "\"" || (scalar == "#" && (peek(1) == "\"" || peek(1) == "#")) {
          if !string() {
            advance()
          }
        } else if scalar == "`" {
          advance()
          let start = position
          while let next = peek(), next != "`", next != "\n" { advance() }
          append(.identifier(String(String.UnicodeScalarView(characters[start..<position]))))
          if peek() == "`" { advance() }
        } else if isIdentifierStart(scalar) {
          let start = position
          while let next = peek(), isIdentifierPart(next) { advance() }
          append(.identifier(String(String.UnicodeScalarView(characters[start..<position]))))
        } else if scalar.properties.numericType != nil || ("0"..."9").contains(scalar) {
          while let next = peek(),
            isIdentifierPart(next) || next == "." && peek(1).map(isDigit) == true
          {
            advance()
          }
        } else if scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" {
          advance()
        } else {
          if closing != nil {
            if scalar == "(" { parentheses += 1 }
            if scalar == ")" {
              if parentheses == 0 {
                advance()
                return
              }
              parentheses -= 1
            }
          }
          append(.punctuation(Character(scalar)))
          advance()
        }
      }
    }

    mutating func append(_ kind: Token.Kind) { tokens.append(Token(kind: kind, line: line)) }

    mutating func blockComment() {
      var depth = 0
      while let scalar = peek() {
        if scalar == "/" && peek(1) == "*" {
          depth += 1
          advance()
          advance()
        } else if scalar == "*" && peek(1) == "/" {
          depth -= 1
          advance()
          advance()
          if depth == 0 { return }
        } else {
          advance()
        }
      }
    }

    /// Skips a string literal (`"…"`, `"""…"""`, with any number of `#`s), reading the code of
    /// its interpolations. False when the `#`s are not followed by a quote (`#if`).
    mutating func string() -> Bool {
      var hashes = 0
      while peek(hashes) == "#" { hashes += 1 }
      guard peek(hashes) == "\"" else { return false }
      for _ in 0..<hashes { advance() }
      let multiline = peek(1) == "\"" && peek(2) == "\""
      let quotes = multiline ? 3 : 1
      if !multiline, peek(1) == "\"" {
        // "" : an empty string.
        advance()
        advance()
        for _ in 0..<hashes where peek() == "#" { advance() }
        return true
      }
      for _ in 0..<quotes { advance() }
      while let scalar = peek() {
        if scalar == "\\" {
          var marks = 0
          while peek(1 + marks) == "#" { marks += 1 }
          if marks == hashes {
            if peek(1 + marks) == "(" {
              for _ in 0..<(2 + marks) { advance() }
              code(until: ")")
              continue
            }
            advance()
            if peek() != nil { advance() }
            continue
          }
          advance()
        } else if scalar == "\"" && closes(quotes: quotes, hashes: hashes) {
          for _ in 0..<(quotes + hashes) { advance() }
          return true
        } else {
          advance()
        }
      }
      return true
    }

    func closes(quotes: Int, hashes: Int) -> Bool {
      for offset in 0..<quotes where peek(offset) != "\"" { return false }
      for offset in 0..<hashes where peek(quotes + offset) != "#" { return false }
      return true
    }

    func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "_" || scalar.properties.isAlphabetic
    }

    func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
      isIdentifierStart(scalar) || isDigit(scalar)
    }

    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
  }
}
