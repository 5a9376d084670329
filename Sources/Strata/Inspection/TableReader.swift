/// Reads one table (or a view's columns) into `Schema` types: the PRAGMAs through
/// `SchemaPragmas`, and the statements' text for what the PRAGMAs do not say.
struct TableReader {
  let pragmas: SchemaPragmas
  let indexSQL: [String: String]
  private var primaryKeys: [String: [String]] = [:]

  init(pragmas: SchemaPragmas, indexSQL: [String: String]) {
    self.pragmas = pragmas
    self.indexSQL = indexSQL
  }

  mutating func table(
    name: String,
    sql: String,
    kind: Schema.Table.Kind,
    listed: SchemaPragmas.ListedTable?
  ) throws -> Schema.Table {
    let isVirtualTable = kind == .virtual
    let definition = isVirtualTable ? nil : TableDefinition(sql: sql)
    let virtualDefinition = isVirtualTable ? VirtualTableDefinition(sql: sql) : nil
    let withoutRowID = listed?.withoutRowID ?? definition?.withoutRowID ?? false
    let strict: Bool? =
      pragmas.connection.sqliteVersionNumber >= SchemaPragmas.tableListVersion
      ? (listed?.strict ?? false) : nil
    // A virtual table whose module is not loaded cannot be read: show what the text says.
    let pragmaColumns =
      isVirtualTable ? ((try? pragmas.columns(of: name)) ?? []) : try pragmas.columns(of: name)
    let listedIndexes = isVirtualTable ? [] : try pragmas.indexes(of: name)
    var columnList = columns(pragmaColumns, definition: definition, strict: strict ?? false)
    // An INTEGER PRIMARY KEY of a rowid table is the rowid: never NULL.
    if definition != nil,
      let alias = SchemaPragmas.rowIDAlias(
        columns: pragmaColumns,
        indexes: listedIndexes,
        hasRowID: !withoutRowID
      )
    {
      columnList[alias].isRowIDAlias = true
      columnList[alias].notNull = true
    }
    let indexes = try readIndexes(listedIndexes)
    let foreignKeys = isVirtualTable ? [] : try readForeignKeys(of: name)
    let rowCount = try? pragmas.connection.scalar(
      "SELECT count(*) FROM main.\(quoteIdentifier(name))"
    )?.integerValue
    return Schema.Table(
      name: name,
      kind: kind,
      sql: sql,
      withoutRowID: withoutRowID,
      strict: strict,
      autoincrement: definition?.autoincrement ?? false,
      autoincrementSequence: nil,
      rowCount: rowCount ?? nil,
      columns: columnList,
      indexes: indexes,
      foreignKeys: foreignKeys,
      checks: definition?.checks ?? [],
      module: virtualDefinition?.module,
      moduleArguments: virtualDefinition?.arguments,
      shadowTables: []
    )
  }

  func viewColumns(_ name: String) -> [Schema.Column] {
    columns((try? pragmas.columns(of: name)) ?? [], definition: nil, strict: false)
  }

  private func columns(
    _ pragmaColumns: [SchemaPragmas.Column],
    definition: TableDefinition?,
    strict: Bool
  ) -> [Schema.Column] {
    pragmaColumns.enumerated().map { offset, column in
      let written = definition?.columns.first { sameName($0.name, column.name) }
      let hidden = column.hidden
      return Schema.Column(
        position: offset + 1,
        name: column.name,
        declaredType: column.declaredType,
        affinity: Schema.Affinity(declaredType: column.declaredType, strict: strict),
        notNull: column.notNull,
        defaultValue: column.defaultValue,
        primaryKeyPosition: column.primaryKeyPosition,
        isRowIDAlias: false,
        generated: hidden == 2 ? .virtual : (hidden == 3 ? .stored : nil),
        generatedExpression: hidden >= 2 ? written?.generatedExpression : nil,
        hidden: hidden == 1,
        collation: written?.collation
      )
    }
  }

  private func readIndexes(_ listed: [SchemaPragmas.Index]) throws -> [Schema.Index] {
    var result: [Schema.Index] = []
    for entry in listed {
      let sql = indexSQL[entry.name].flatMap { $0.isEmpty ? nil : $0 }
      let definition = sql.map { IndexDefinition(sql: $0) }
      let keyColumns = try pragmas.keyColumns(of: entry.name).enumerated().map {
        seqno,
        column in
        var name = column.name
        var expression: String?
        if column.columnID == -2 {
          name = nil
          expression = definition.flatMap { seqno < $0.terms.count ? $0.terms[seqno] : nil }
        } else if column.columnID == -1 {
          name = "rowid"
        }
        return Schema.IndexColumn(
          name: name,
          expression: expression,
          descending: column.descending,
          collation: column.collation ?? "BINARY"
        )
      }
      let origin: Schema.Index.Origin =
        switch entry.origin {
        case "pk": .primaryKey
        case "u": .unique
        default: .created
        }
      result.append(
        Schema.Index(
          name: entry.name,
          unique: entry.unique,
          origin: origin,
          columns: keyColumns,
          partialWhere: entry.partial ? definition?.whereClause : nil,
          sql: sql
        )
      )
    }
    return result.sorted { namesInOrder($0.name, $1.name) }
  }

  private mutating func readForeignKeys(of table: String) throws -> [Schema.ForeignKey] {
    var result: [Schema.ForeignKey] = []
    for key in try pragmas.foreignKeys(of: table) {
      // REFERENCES parent without columns means the parent's primary key.
      let parentColumns =
        key.to.contains(nil) ? try primaryKey(of: key.parent) : key.to.compactMap { $0 }
      result.append(
        Schema.ForeignKey(
          columns: key.from,
          parentTable: key.parent,
          parentColumns: parentColumns,
          onDelete: key.onDelete,
          onUpdate: key.onUpdate,
          match: key.match
        )
      )
    }
    return result.sorted {
      let a = $0.columns.joined(separator: ",") + "\u{0}" + $0.parentTable
      let b = $1.columns.joined(separator: ",") + "\u{0}" + $1.parentTable
      return namesInOrder(a, b)
    }
  }

  private mutating func primaryKey(of table: String) throws -> [String] {
    if let known = primaryKeys[table] { return known }
    let key = try pragmas.columns(of: table).filter { $0.primaryKeyPosition > 0 }
      .sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
    primaryKeys[table] = key
    return key
  }
}
