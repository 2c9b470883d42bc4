/// One row of a chain: the outer knobs held at one value each and written into the server's
/// command, the last free knob (and the knobs tied to it) swept as the row's `{size}`. A row
/// is an ordinary server sweep with a run directory of its own.
package struct ChainRow: Sendable, Equatable {
    /// The values of the knobs the row holds, in the order the knobs were given (the swept
    /// knob and its ties left out).
    package var held: [(name: String, value: Int)]
    /// The swept knob.
    package var swept: String
    /// The server's command of the row, the swept knob written `{size}`.
    package var command: String
    /// The swept knob's sizes this row measures: those whose cells the database allows.
    package var sizes: [Int]
    /// The cells left out, each with why.
    package var excluded: [(cell: KnobCell, reason: String)]
    /// Every cell of the row, measured or not, in the order of the swept knob's sizes.
    package var cells: [KnobCell]

    /// `workers=2`, or `the only row` for a chain of one free knob.
    package var label: String {
        held.isEmpty ? "\(swept) alone" : held.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    }

    /// The run directory's name below the chain's `rows/`: `workers-2`, `all` for one row.
    package var directoryName: String {
        held.isEmpty ? "all" : held.map { "\($0.name)-\($0.value)" }.joined(separator: "_")
    }

    /// The cell of this row at the swept knob's `size`.
    package func cell(size: Int) -> KnobCell? { cells.first { $0[swept] == size } }

    package static func == (lhs: ChainRow, rhs: ChainRow) -> Bool {
        lhs.held.map(\.name) == rhs.held.map(\.name) && lhs.held.map(\.value) == rhs.held.map(\.value)
            && lhs.swept == rhs.swept && lhs.command == rhs.command && lhs.sizes == rhs.sizes
            && lhs.cells == rhs.cells && lhs.excluded.map(\.reason) == rhs.excluded.map(\.reason)
    }
}

extension KnobSpace {
    /// The knob each row sweeps: the last one with sizes of its own.
    package var swept: Knob? { free.last }

    /// The rows of the space: one for each combination of the free knobs but the swept one, in
    /// the order of `cells`; cells `excluded` names (with its reason) are left out of the sizes.
    package func rows(command line: String, excluded: (KnobCell) -> String?) throws(PoolSizeError) -> [ChainRow] {
        guard let swept else { return [] }
        let sweptNames = names.filter { source(of: $0)?.name == swept.name }
        var rows: [ChainRow] = []
        for cell in cells {
            let held = names.filter { !sweptNames.contains($0) && !isTied($0) }.map { ($0, cell[$0]) }
            if let index = rows.firstIndex(where: { $0.held.map(\.value) == held.map(\.1) }) {
                rows[index].cells.append(cell)
                if let reason = excluded(cell) {
                    rows[index].excluded.append((cell, reason))
                } else {
                    rows[index].sizes.append(cell[swept.name])
                }
                continue
            }
            var values: [String: String] = [:]
            for name in names { values[name] = sweptNames.contains(name) ? "{size}" : String(cell[name]) }
            let reason = excluded(cell)
            rows.append(
                ChainRow(
                    held: held.map { (name: $0.0, value: $0.1) }, swept: swept.name,
                    command: try ServerCommand.filling(line, knobs: values),
                    sizes: reason == nil ? [cell[swept.name]] : [], excluded: reason.map { [(cell, $0)] } ?? [],
                    cells: [cell]))
        }
        return rows
    }

    private func isTied(_ name: String) -> Bool {
        if case .tied = knobs.first(where: { $0.name == name })?.values { return true }
        return false
    }
}
