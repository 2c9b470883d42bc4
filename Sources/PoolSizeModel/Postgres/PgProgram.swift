/// A script made ready to run once per task (`PgProgram(script, variables:)`): each variable is a
/// numbered slot, each `\set` and `\sleep` expression a flat list of instructions on a small
/// stack, and each SQL command its literal bytes with slots between them. A transaction then
/// reuses one `State` (per connection) and allocates nothing, hashes no name and copies no
/// dictionary: the client's work per transaction stays close to pgbench's, which is what the
/// sweep's figures are compared with.
package final class PgProgram: Sendable {
    /// One instruction of an expression, in postfix order (operands before their operator), so
    /// values are computed and random numbers drawn in the order pgbench evaluates them.
    enum Instruction: Sendable {
        case constant(Int64)
        case load(slot: Int)
        /// A variable nothing sets before this point: evaluating it fails, naming it.
        case unset(slot: Int)
        case random
        case negate
        case binary(Character)
    }

    /// One command, its instructions or parts as ranges into the program's arrays.
    enum Step: Sendable {
        case set(slot: Int, code: Range<Int>, line: Int)
        case sleep(code: Range<Int>, microsecondsPerUnit: Int64, line: Int)
        case sql(parts: Range<Int>)
    }

    /// A piece of a SQL command: literal bytes of `text`, or a slot's value in decimal.
    enum Part: Sendable {
        case text(Range<Int>)
        case slot(Int)
    }

    /// What one connection reuses from transaction to transaction: the slots' values, the
    /// expression stack and the SQL being built (NUL-terminated for libpq).
    package struct State: Sendable {
        var values: [Int64] = []
        var stack: [Int64] = []
        var sql: [UInt8] = []
        /// The step `advance` runs next.
        var next = 0
        /// An empty state; the first transaction sizes it.
        package init() {}

        /// Calls `body` with the SQL command `advance` stopped at, NUL-terminated, valid only
        /// during the call.
        package func withSQL<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
            sql.withUnsafeBytes { bytes in body(bytes.baseAddress!.assumingMemoryBound(to: CChar.self)) }
        }
    }

    /// What `advance` stopped at.
    package enum Action: Equatable, Sendable {
        /// A SQL command to run: its NUL-terminated text is the state's `sql`.
        case sql
        /// A pause of so many microseconds.
        case sleep(Int64)
        /// The transaction's end.
        case end
        /// A value could not be had; the transaction ends here.
        case failed(PgScriptFailure)
    }

    let steps: [Step]
    let instructions: [Instruction]
    let parts: [Part]
    let text: [UInt8]
    /// Each slot's variable name, for failure messages.
    let names: [String]
    /// Each slot's value when a transaction starts (the run's variables; 0 where unset).
    let initial: [Int64]
    /// The slot of `:client_id` when the run sets it: each connection puts its number there.
    let clientIDSlot: Int?

    /// `script` compiled with the run's `variables` (`--define`s, the scale, `client_id`). A
    /// name neither in `variables` nor set by an earlier `\set` fails the expression that reads
    /// it, and stays `:name` in SQL, as pgbench leaves an unknown variable.
    package init(_ script: PgScript, variables: [String: Int64]) {
        var slotOf: [String: Int] = [:]
        var names: [String] = []
        var initial: [Int64] = []
        var isSet: Set<String> = Set(variables.keys)
        func slot(_ name: String) -> Int {
            if let slot = slotOf[name] { return slot }
            slotOf[name] = names.count
            names.append(name)
            initial.append(variables[name] ?? 0)
            return names.count - 1
        }
        var steps: [Step] = []
        var instructions: [Instruction] = []
        var parts: [Part] = []
        var text: [UInt8] = []
        func compile(_ expression: PgExpression) -> Range<Int> {
            let start = instructions.count
            func emit(_ expression: PgExpression) {
                switch expression {
                case let .integer(value): instructions.append(.constant(value))
                case let .variable(name):
                    instructions.append(isSet.contains(name) ? .load(slot: slot(name)) : .unset(slot: slot(name)))
                case let .random(low, high):
                    emit(low)
                    emit(high)
                    instructions.append(.random)
                case let .negate(inner):
                    emit(inner)
                    instructions.append(.negate)
                case let .binary(op, left, right):
                    emit(left)
                    emit(right)
                    instructions.append(.binary(op))
                }
            }
            emit(expression)
            return start..<instructions.count
        }
        func literal(_ string: String) {
            let start = text.count
            text.append(contentsOf: string.utf8)
            parts.append(.text(start..<text.count))
        }
        for command in script.commands {
            switch command {
            case let .set(name, expression, line):
                let code = compile(expression)
                steps.append(.set(slot: slot(name), code: code, line: line))
                isSet.insert(name)
            case let .sleep(expression, unit, line):
                steps.append(.sleep(code: compile(expression), microsecondsPerUnit: unit, line: line))
            case let .sql(sql, _):
                let start = parts.count
                for piece in PgScript.split(sql, known: isSet) {
                    switch piece {
                    case let .text(run): literal(run)
                    case let .variable(name): parts.append(.slot(slot(name)))
                    }
                }
                steps.append(.sql(parts: start..<parts.count))
            }
        }
        self.steps = steps
        self.instructions = instructions
        self.parts = parts
        self.text = text
        self.names = names
        self.initial = initial
        clientIDSlot = variables["client_id"] != nil ? slotOf["client_id"] : nil
    }

    /// Runs one transaction: every `\set` in order, drawing from `random`; each `\sleep`'s
    /// microseconds to `sleep`; each SQL command, variables substituted, to `sql` as a
    /// NUL-terminated string valid only during the call, which returns false to stop there (a
    /// failed command). `clientID` is `:client_id`'s value for this transaction. Returns why a
    /// value could not be had (a division by zero, crossed random bounds), or nil.
    package func run(
        clientID: Int64? = nil, state: inout State, random: (ClosedRange<Int64>) -> Int64,
        sleep: (Int64) -> Void, sql: (UnsafePointer<CChar>) -> Bool
    ) -> PgScriptFailure? {
        begin(clientID: clientID, state: &state)
        while true {
            switch advance(&state, random: random) {
            case .sql:
                if !state.withSQL(sql) { return nil }
            case let .sleep(microseconds): sleep(microseconds)
            case .end: return nil
            case let .failed(failure): return failure
            }
        }
    }

    /// Starts a transaction on `state`: the run's values in every slot, `clientID` in
    /// `:client_id`'s, the first command next. `advance` then steps through it.
    package func begin(clientID: Int64? = nil, state: inout State) {
        if state.values.count != initial.count {
            state.values = Array(repeating: 0, count: initial.count)
        }
        for slot in initial.indices { state.values[slot] = initial[slot] }
        if let clientID, let clientIDSlot { state.values[clientIDSlot] = clientID }
        state.next = 0
    }

    /// Runs the transaction `begin` started up to its next command that waits: a SQL command
    /// (`.sql`, its NUL-terminated text in `state.sql`), a `\sleep`, its end, or why a value
    /// could not be had. A driver that waits on many connections at once steps each this way.
    package func advance(_ state: inout State, random: (ClosedRange<Int64>) -> Int64) -> Action {
        while state.next < steps.count {
            let step = steps[state.next]
            state.next += 1
            switch step {
            case let .set(slot, code, line):
                switch evaluate(code, &state, random: random) {
                case let .success(value): state.values[slot] = value
                case let .failure(failure):
                    return .failed(PgScriptFailure("line \(line): \\set \(names[slot]): \(failure.reason)"))
                }
            case let .sleep(code, unit, line):
                switch evaluate(code, &state, random: random) {
                case let .success(value):
                    let (product, overflow) = value.multipliedReportingOverflow(by: unit)
                    guard !overflow, product >= 0 else {
                        return .failed(PgScriptFailure("line \(line): \\sleep \(value): out of range"))
                    }
                    return .sleep(product)
                case let .failure(failure): return .failed(PgScriptFailure("line \(line): \\sleep: \(failure.reason)"))
                }
            case let .sql(range):
                state.sql.removeAll(keepingCapacity: true)
                for index in range {
                    switch parts[index] {
                    case let .text(bytes):
                        text.withUnsafeBufferPointer { state.sql.append(contentsOf: $0.extracting(bytes)) }
                    case let .slot(slot): Self.appendDecimal(state.values[slot], to: &state.sql)
                    }
                }
                state.sql.append(0)
                return .sql
            }
        }
        return .end
    }

    /// The value of the instructions in `code`, or why it has none, with the reasons
    /// `PgExpression` gives.
    func evaluate(_ code: Range<Int>, _ state: inout State, random: (ClosedRange<Int64>) -> Int64) -> Result<
        Int64, PgScriptFailure
    > {
        state.stack.removeAll(keepingCapacity: true)
        for index in code {
            switch instructions[index] {
            case let .constant(value): state.stack.append(value)
            case let .load(slot): state.stack.append(state.values[slot])
            case let .unset(slot): return .failure(PgScriptFailure("variable :\(names[slot]) is not set"))
            case .random:
                let high = state.stack.removeLast(), low = state.stack.removeLast()
                guard low <= high else {
                    return .failure(PgScriptFailure("random(\(low), \(high)): the lower bound is above the upper"))
                }
                state.stack.append(random(low...high))
            case .negate:
                let value = state.stack.removeLast()
                guard value != .min else { return .failure(PgScriptFailure("integer out of range")) }
                state.stack.append(-value)
            case let .binary(op):
                let right = state.stack.removeLast(), left = state.stack.removeLast()
                switch PgExpression.apply(op, left, right) {
                case let .success(value): state.stack.append(value)
                case let .failure(failure): return .failure(failure)
                }
            }
        }
        return .success(state.stack.removeLast())
    }

    /// `value` in decimal appended to `bytes`, as `String(value)` writes it.
    static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }
}
