import PoolSizeModel

extension TrialsColumn {
    /// The database's columns (`TrialRecord.Watched.database`), in file order: the snapshots of
    /// `pg_stat_activity`, which make a row a database trial (or a server trial that watched its
    /// database, read after the server's columns), then the errors by SQLSTATE, the backends' CPU,
    /// the samples in each wait class and the most backends a snapshot saw. Each is empty for a
    /// trial that watched no database and read only into one that did.
    static let databaseColumns: [TrialsColumn] =
        [
            TrialsColumn(
                "db_snapshots",
                write: { database($0) { String($0.snapshots) } },
                read: { row, r throws(PoolSizeError) in
                    guard let cell = row.text("db_snapshots"), !cell.isEmpty else { return }
                    r.watched = r.watched.withDatabase(DatabaseFigures(snapshots: try row.integer("db_snapshots")))
                }),
            databaseFigure(
                "db_errors", write: { CSVField.escape($0.errorsText) },
                read: { row, d throws(PoolSizeError) in
                    let cell = row.text("db_errors") ?? ""
                    guard let errors = DatabaseFigures.errors(from: cell) else {
                        throw row.invalid(
                            "db_errors", cell, "SQLSTATE:COUNT pairs separated by spaces (40001:12 40P01:3)")
                    }
                    d.errorsBySQLState = errors
                }),
            {
                let cell = optionalNumber("db_backend_cpu_s", \DatabaseFigures.backendCPUSeconds, decimals: 6)
                return databaseFigure("db_backend_cpu_s", write: cell.write, read: cell.read)
            }(),
        ]
        + WaitClass.allCases.map { kind in
            databaseFigure(
                "db_\(kind.rawValue)_samples", write: { String($0.waitSamples[kind] ?? 0) },
                read: { row, d throws(PoolSizeError) in
                    let count = try row.integer("db_\(kind.rawValue)_samples")
                    d.waitSamples[kind] = count > 0 ? count : nil
                })
        }
        + [
            databaseFigure(
                "db_peak_connections", write: { $0.peakConnections.map(String.init) ?? "" },
                read: { row, d throws(PoolSizeError) in
                    guard let cell = row.text("db_peak_connections"), !cell.isEmpty else { return }
                    d.peakConnections = try row.integer("db_peak_connections")
                })
        ]

    /// A database figure: empty for a trial that watched no database, read only into one that did.
    static func databaseFigure(
        _ name: String, write: @escaping @Sendable (DatabaseFigures) -> String,
        read: @escaping @Sendable (TrialsCSV.Row, inout DatabaseFigures) throws(PoolSizeError) -> Void
    ) -> TrialsColumn {
        TrialsColumn(
            name, write: { database($0, write) },
            read: { row, r throws(PoolSizeError) in
                try r.watched.updateDatabase { figures throws(PoolSizeError) in try read(row, &figures) }
            })
    }

    /// A database figure's cell: written from the database's figures, empty without them.
    static func database(_ record: TrialRecord, _ write: (DatabaseFigures) -> String) -> String {
        record.watched.database.map(write) ?? ""
    }
}
