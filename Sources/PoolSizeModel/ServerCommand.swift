import Foundation

/// The command that starts the server whose pool a sweep sizes, as an argument vector with
/// placeholders: `{size}`, the pool size of the trial, and `{port}`, a free port poolsize
/// picks. The line is split into words as a shell would (`ShellWords`, no shell runs), then
/// each placeholder is filled in inside its word, so `--threads={size}` or `-b
/// 127.0.0.1:{port}` work and no value can split a word in two; whoever wants a shell writes
/// `sh -c '…'`. `{{` writes a literal `{` (awk's `{{print}` in a word, say).
package struct ServerCommand: Equatable, Sendable {
    /// A value poolsize fills in.
    package enum Placeholder: String, CaseIterable, Sendable {
        /// The pool size of the trial.
        case size
        /// The TCP port the server is to listen on, free when it starts.
        case port
        /// The running server's process id (a resize command's: `kill -TTIN {pid}`).
        case pid
        /// An open-loop trial's arrival rate, requests a second (a load tool's: `-e RATE={rate}`).
        case rate

        /// As written in a template: `{size}`.
        package var written: String { "{\(rawValue)}" }
    }

    /// The words as given, placeholders unfilled.
    package let words: [String]
    /// The placeholders the words hold.
    package let placeholders: Set<Placeholder>

    /// Splits and checks `line`: one line per problem, naming the setting (`server`).
    /// - Parameter allowsNoSize: true when the size is set otherwise (a resize command), so the
    ///   server command need not take it.
    package init(_ line: String, allowsNoSize: Bool = false) throws(PoolSizeError) {
        let words = try ShellWords.split(line, parameter: .server)
        var found: Set<Placeholder> = []
        for word in words {
            found.formUnion(try Self.placeholders(in: word, known: [.size, .port], parameter: .server))
        }
        if found.contains(.size) && allowsNoSize {
            throw .invalidParameter(
                .server,
                message:
                    "has {size}, but \(PoolSizeError.Parameter.resize.mention) sets the size of the one server it starts; drop {size} from the server's command"
            )
        }
        if !found.contains(.size) && !allowsNoSize {
            throw .invalidParameter(
                .server,
                // No resize command can be given yet: the fix is {size} alone.
                message: "has no {size}, so every size would start the same server; add {size} where the command takes "
                    + "its pool size (--threads={size}, say)"  // flag-spelling: not poolsize's
            )
        }
        self.words = words
        placeholders = found
    }

    /// A command that changes the running server's pool to `{size}` (`resize`): its words may
    /// also hold `{pid}`, the server's process id, and `{port}`, the server's port.
    package init(resize line: String) throws(PoolSizeError) {
        let words = try ShellWords.split(line, parameter: .resize)
        var found: Set<Placeholder> = []
        for word in words {
            found.formUnion(try Self.placeholders(in: word, known: [.size, .pid, .port], parameter: .resize))
        }
        guard found.contains(.size) else {
            throw .invalidParameter(
                .resize,
                message:
                    "has no {size}, so every size would be the same; write {size} where the command takes the new size (and {pid} for the server's process id)"
            )
        }
        self.words = words
        placeholders = found
    }

    /// The argument vector of a resize command: `{size}`, `{pid}` and `{port}` filled in.
    package func arguments(size: Int, pid: Int32, port: Int?) -> [String] {
        var values = [Placeholder.size: String(size), .pid: String(pid)]
        if let port { values[.port] = String(port) }
        return words.map { Self.fill($0, values) }
    }

    /// Whether the server is told its port, so poolsize picks a free one for it.
    package var usesPort: Bool { placeholders.contains(.port) }

    /// The argument vector for one trial: every placeholder filled in. `port` is required when
    /// the command has `{port}`.
    package func arguments(size: Int, port: Int?) -> [String] {
        precondition(!usesPort || port != nil, "the command has {port}: give a port")
        var values = [Placeholder.size: String(size)]
        if let port { values[.port] = String(port) }
        return words.map { Self.fill($0, values) }
    }

    /// The command as it can be typed again, placeholders unfilled.
    package var display: String { ShellWords.join(words) }

    /// The placeholders `word` holds; an unknown one (`{sise}`) is an error naming it and the
    /// known ones.
    static func placeholders(
        in word: String, known: [Placeholder], parameter: PoolSizeError.Parameter
    ) throws(PoolSizeError) -> Set<Placeholder> {
        if let open = unclosedPlaceholder(in: word) {
            let name = open.drop { $0 == "{" || $0 == " " }
            throw .invalidParameter(
                parameter,
                message: "\(open) is a placeholder without its closing }; write {\(name)} (or {{ for a literal {)")
        }
        var found: Set<Placeholder> = []
        for piece in pieces(word) {
            guard case let .placeholder(name) = piece else { continue }
            guard let placeholder = Placeholder(rawValue: name), known.contains(placeholder) else {
                let list = known.map(\.written)
                let knownText =
                    list.count == 1
                    ? "the only placeholder is \(list[0])"
                    : "the placeholders are \(list.dropLast().joined(separator: ", ")) and \(list.last ?? "")"
                throw .invalidParameter(
                    parameter,
                    message:
                        "{\(TerminalText.escape(name))} is not a placeholder; \(knownText) (write {{ for a literal {)")
            }
            found.insert(placeholder)
        }
        return found
    }

    /// The first `{size`, `{ port` or `{pid ` that `pieces` would take for text, a placeholder's
    /// name but not written as one (`{size {port}`); nil when there is none. A brace before
    /// anything else stays text (a shell's `{ cmd; }`, awk's `{print}`).
    static func unclosedPlaceholder(in word: String) -> String? {
        var rest = Substring(word)
        while let brace = rest.firstIndex(of: "{") {
            rest = rest[brace...]
            if rest.hasPrefix("{{") {
                rest = rest.dropFirst(2)
                continue
            }
            let spaces = rest.dropFirst().prefix { $0 == " " }
            let name = rest.dropFirst(1 + spaces.count).prefix {
                $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-")
            }
            let after = rest.dropFirst(1 + spaces.count + name.count)
            if Placeholder(rawValue: String(name)) != nil, !spaces.isEmpty || after.first != "}" {
                return "{" + spaces + name
            }
            rest = rest.dropFirst()
        }
        return nil
    }

    /// `word` with each placeholder replaced by its value (one without a value stays as written)
    /// and `{{` by `{`.
    static func fill(_ word: String, _ values: [Placeholder: String]) -> String {
        pieces(word).map { piece in
            switch piece {
            case let .text(text): return text
            case let .placeholder(name): return Placeholder(rawValue: name).flatMap { values[$0] } ?? "{\(name)}"
            }
        }.joined()
    }

    /// A word's text and placeholders in order.
    enum Piece: Equatable {
        case text(String)
        case placeholder(String)
    }

    /// `{name}`, a name of letters, digits, `_` and `-`, is a placeholder; `{{` is a literal
    /// `{`; any other brace is text (a shell's `{ cmd; }`, an awk program with spaces).
    static func pieces(_ word: String) -> [Piece] {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(word)
        while let first = rest.first {
            if rest.hasPrefix("{{") {
                text.append("{")
                rest = rest.dropFirst(2)
                continue
            }
            if first == "{" {
                let name = rest.dropFirst().prefix {
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-")
                }
                let after = rest.dropFirst(1 + name.count)
                if !name.isEmpty, after.first == "}" {
                    if !text.isEmpty { pieces.append(.text(text)) }
                    text = ""
                    pieces.append(.placeholder(String(name)))
                    rest = after.dropFirst()
                    continue
                }
            }
            text.append(first)
            rest = rest.dropFirst()
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        return pieces
    }
}
