import PoolSizeModel

/// One column of `trials.csv`: its name, its cell for a record, and how a row's cell is read back
/// into a record. `TrialsCSV.columns` lists them in file order, so the header, the writer and the
/// reader cannot drift apart.
package struct TrialsColumn: Sendable {
    /// The header's name for the column, with its unit (`wall_s`, `latency_p99_us`).
    package let name: String
    /// A reader refuses a file without it.
    let isRequired: Bool
    /// The figure may be below 0 (the nice a tier got, the backlog's trend).
    let isSigned: Bool
    let write: @Sendable (TrialRecord) -> String
    let read: @Sendable (TrialsCSV.Row, inout TrialRecord) throws(PoolSizeError) -> Void

    init(
        _ name: String, required: Bool = false, signed: Bool = false,
        write: @escaping @Sendable (TrialRecord) -> String,
        read: @escaping @Sendable (TrialsCSV.Row, inout TrialRecord) throws(PoolSizeError) -> Void
    ) {
        self.name = name
        isRequired = required
        isSigned = signed
        self.write = write
        self.read = read
    }

    /// Free text, escaped for CSV.
    static func text(_ name: String, _ field: WritableKeyPath<TrialRecord, String> & Sendable) -> TrialsColumn {
        TrialsColumn(
            name, write: { CSVField.escape($0[keyPath: field]) },
            read: { row, r in r[keyPath: field] = row.text(name) ?? "" })
    }

    /// A figure written with a fixed number of decimals.
    static func number(
        _ name: String, _ field: WritableKeyPath<TrialRecord, Double> & Sendable, decimals: Int, required: Bool = false
    ) -> TrialsColumn {
        TrialsColumn(
            name, required: required, write: { CSVField.number($0[keyPath: field], decimals: decimals) },
            read: { row, r throws(PoolSizeError) in r[keyPath: field] = try row.number(name) })
    }

    /// A figure that may be missing, with a fixed number of decimals: its cell for `Root`
    /// (empty for nil) and how a row's cell is read into it (an empty cell leaves it nil).
    static func optionalNumber<Root>(
        _ name: String, _ field: WritableKeyPath<Root, Double?> & Sendable, decimals: Int
    ) -> (
        write: @Sendable (Root) -> String, read: @Sendable (TrialsCSV.Row, inout Root) throws(PoolSizeError) -> Void
    ) {
        (
            write: { $0[keyPath: field].map { CSVField.number($0, decimals: decimals) } ?? "" },
            read: { row, root throws(PoolSizeError) in
                guard let cell = row.text(name), !cell.isEmpty else { return }
                root[keyPath: field] = try row.number(name)
            }
        )
    }

    /// A count.
    static func integer(_ name: String, _ field: WritableKeyPath<TrialRecord, Int> & Sendable, signed: Bool = false)
        -> TrialsColumn
    {
        TrialsColumn(
            name, signed: signed, write: { String($0[keyPath: field]) },
            read: { row, r throws(PoolSizeError) in r[keyPath: field] = try row.integer(name) })
    }

    /// One of an axis's values, by its raw name.
    static func choice<T: AxisValue>(
        _ name: String, _ field: WritableKeyPath<TrialRecord, T> & Sendable
    ) -> TrialsColumn where T.RawValue == String {
        TrialsColumn(
            name, required: true, write: { $0[keyPath: field].rawValue },
            read: { row, r throws(PoolSizeError) in r[keyPath: field] = try row.value(name, as: T.self) })
    }
}

// The closures that read an axis capture its type, which Swift 6.2 checks is sendable.
#if compiler(>=6.2)
    typealias AxisValue = RawRepresentable & CaseIterable & SendableMetatype
#else
    typealias AxisValue = RawRepresentable & CaseIterable
#endif
