/// A transaction written as a pgbench script (`--sql`, `--sql-file`): SQL commands ended by
/// semicolons, and the meta-commands `\set` (`PgExpression`'s subset) and `\sleep`, so that one
/// file runs unchanged in pgbench (`pgbench -f FILE`) and in poolsize. Each task runs the whole
/// script once, on its own connection, as one pgbench transaction does.
package struct PgScript: Equatable, Sendable {
    /// The commands in order.
    package var commands: [PgCommand]

    /// Variables a script may read without setting them: what pgbench defines itself (the
    /// scale, the client's number), set by the runner.
    package static let predefined: Set<String> = ["scale", "client_id"]

    /// The script `text` holds; `defined` are the variables set for the whole run (`--define`).
    /// Throws `sql`'s or `sqlFile`'s parameter (`source`) with the line and the fix when a line is
    /// outside the subset, a `\set` reads a variable nothing sets, or no SQL command is in it.
    package init(_ text: String, source: PoolSizeError.Parameter, defined: Set<String> = []) throws(PoolSizeError) {
        var commands: [PgCommand] = []
        var pending = "", pendingLine = 0
        var quote: Character? = nil
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func fail(_ line: Int, _ reason: String) -> PoolSizeError {
            .invalidParameter(source, message: "line \(line): \(reason)")
        }
        for (offset, raw) in lines.enumerated() {
            let number = offset + 1
            var line = String(raw)
            if line.hasSuffix("\r") { line.removeLast() }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if quote == nil, trimmed.hasPrefix("\\") {
                // A meta-command ends a SQL command its line interrupts, as in pgbench.
                let statement = pending.trimmingCharacters(in: .whitespacesAndNewlines)
                if !statement.isEmpty { commands.append(.sql(statement, line: pendingLine)) }
                pending = ""
                do throws(PgScriptFailure) {
                    commands.append(try Self.meta(trimmed, line: number))
                } catch {
                    throw fail(number, error.reason)
                }
                continue
            }
            // SQL: split at semicolons outside quotes, drop `--` comments outside quotes.
            var characters = Array(line)
            var index = 0
            while index < characters.count {
                let character = characters[index]
                if let open = quote {
                    pending.append(character)
                    if character == open { quote = nil }
                } else if character == "'" || character == "\"" {
                    quote = character
                    pending.append(character)
                } else if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                    characters.removeSubrange(index...)
                    break
                } else if character == ";" {
                    let statement = pending.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !statement.isEmpty { commands.append(.sql(statement, line: pendingLine)) }
                    pending = ""
                } else {
                    if pending.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty && !character.isWhitespace {
                        pendingLine = number
                    }
                    pending.append(character)
                }
                index += 1
            }
            pending.append("\n")
        }
        let last = pending.trimmingCharacters(in: .whitespacesAndNewlines)
        if quote != nil { throw fail(pendingLine, "a quoted string in the command starting here is not closed") }
        if !last.isEmpty { commands.append(.sql(last, line: pendingLine)) }
        guard commands.contains(where: { if case .sql = $0 { return true } else { return false } }) else {
            throw .invalidParameter(
                source, message: "holds no SQL command; write the transaction's statements, each ended by ';'")
        }
        var known = Self.predefined.union(defined)
        for command in commands {
            let (reads, line): (Set<String>, Int)
            switch command {
            case let .set(name, expression, at):
                (reads, line) = (expression.variables, at)
                if let unknown = reads.subtracting(known).sorted().first {
                    throw fail(line, "\\set reads :\(unknown), which nothing sets before it; \\set it first")
                }
                known.insert(name)
            case let .sleep(expression, _, at):
                (reads, line) = (expression.variables, at)
                if let unknown = reads.subtracting(known).sorted().first {
                    throw fail(line, "\\sleep reads :\(unknown), which nothing sets before it; \\set it first")
                }
            case .sql: continue
            }
        }
        self.commands = commands
    }

    /// A meta-command line (`\set`, `\sleep`); the reason for anything else.
    static func meta(_ line: String, line number: Int) throws(PgScriptFailure) -> PgCommand {
        let words = line.dropFirst().split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
        let name = words.first.map(String.init) ?? ""
        let rest = words.count > 1 ? String(words[1]).trimmingCharacters(in: .whitespaces) : ""
        switch name {
        case "set":
            let parts = rest.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
            guard parts.count == 2 else { throw PgScriptFailure("\\set needs a variable and an expression") }
            let variable = String(parts[0])
            guard variable.allSatisfy(isNameCharacter) else {
                throw PgScriptFailure("'\(TerminalText.escape(variable))' is not a variable name")
            }
            return .set(name: variable, try PgExpressionParser.parse(String(parts[1])), line: number)
        case "sleep":
            var parts = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            var unit: Int64 = 1_000_000
            if parts.count == 2 {
                switch parts[1] {
                case "us": unit = 1
                case "ms": unit = 1_000
                case "s": unit = 1_000_000
                default: throw PgScriptFailure("\\sleep's unit is us, ms or s, not '\(TerminalText.escape(parts[1]))'")
                }
                parts.removeLast()
            }
            guard parts.count == 1 else { throw PgScriptFailure("\\sleep takes an amount and a unit (us, ms, s)") }
            return .sleep(try PgExpressionParser.parse(parts[0]), microsecondsPerUnit: unit, line: number)
        default:
            throw PgScriptFailure(
                "\\\(TerminalText.escape(name)) is not supported: this subset of pgbench's scripts runs SQL, \\set (integers, :variables, + - * / %, random(lo, hi)) and \\sleep"
            )
        }
    }

    /// The variables the script's commands read (`:scale` read by a `\set` or a SQL command).
    package var reads: Set<String> {
        var names: Set<String> = []
        for command in commands {
            switch command {
            case let .set(_, expression, _), let .sleep(expression, _, _): names.formUnion(expression.variables)
            case let .sql(text, _): names.formUnion(Self.references(in: text))
            }
        }
        return names
    }

    /// One transaction's steps: every `\set` evaluated in order from `variables` (the run's),
    /// drawing from `random`, and substituted into the SQL after it; the reason when a value
    /// cannot be had (a division by zero, a random range whose bounds cross). What a task runs
    /// (`PgProgram`), written out.
    package func transaction(variables: [String: Int64], random: (ClosedRange<Int64>) -> Int64) -> Result<
        [PgStep], PgScriptFailure
    > {
        let program = PgProgram(self, variables: variables)
        var state = PgProgram.State()
        var steps: [PgStep] = []
        let failure = program.run(
            state: &state, random: random, sleep: { steps.append(.sleep(microseconds: $0)) },
            sql: { text in
                steps.append(.sql(String(cString: text)))
                return true
            })
        return failure.map { .failure($0) } ?? .success(steps)
    }

    /// `text` split at each `:name` of `known` (a variable set before the command or defined
    /// for the run), the rest kept as text, as pgbench's simple protocol substitutes: `::` (a
    /// cast) and names of no set variable stay text.
    static func split(_ text: String, known: Set<String>) -> [PgSQLPiece] {
        var result: [PgSQLPiece] = []
        var literal = ""
        for (run, name) in tokens(text) {
            literal += run
            guard let name else { continue }
            if known.contains(String(name)) {
                if !literal.isEmpty { result.append(.text(literal)) }
                literal = ""
                result.append(.variable(String(name)))
            } else {
                literal += ":" + name
            }
        }
        if !literal.isEmpty { result.append(.text(literal)) }
        return result
    }

    /// The `:name`s in a SQL command (casts `::` left out).
    static func references(in text: String) -> Set<String> {
        Set(tokens(text).compactMap { $0.name.map(String.init) })
    }

    /// `text` as runs of text each followed by the `:name` after it (nil after the last run): a
    /// `::` cast and a `:` without a name stay in the text.
    static func tokens(_ text: String) -> [(literal: Substring, name: Substring?)] {
        var result: [(literal: Substring, name: Substring?)] = []
        var characters = Substring(text)
        var start = characters.startIndex
        while let colon = characters.firstIndex(of: ":") {
            let after = characters[characters.index(after: colon)...]
            if after.first == ":" {
                characters = after.dropFirst()
                continue
            }
            let name = after.prefix(while: isNameCharacter)
            if name.isEmpty {
                characters = after
                continue
            }
            result.append((text[start..<colon], name))
            characters = after[name.endIndex...]
            start = name.endIndex
        }
        result.append((text[start...], nil))
        return result
    }

    /// A character of a variable's name, as pgbench's: an ASCII letter, digit or `_`.
    static func isNameCharacter(_ character: Character) -> Bool {
        character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
    }
}
