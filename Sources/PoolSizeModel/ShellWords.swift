import Foundation

/// Splits a command line into its words as a POSIX shell would (quotes, backslashes), without
/// a shell: no variables, globs, pipes or redirections. `grep -c "a b" file` runs
/// `grep` with the arguments `-c`, `a b` and `file`; whoever wants a shell writes `sh -c '…'`.
/// `join` is the inverse, for messages: a command as it can be typed again.
package enum ShellWords {
    /// The words as one line a POSIX shell (and `split`) reads back as the same words: a word
    /// of only safe characters as it is, any other in single quotes (`'\''` for a quote).
    package static func join(_ words: [String]) -> String {
        words.map { word in
            let safe =
                !word.isEmpty
                && word.unicodeScalars.allSatisfy { scalar in
                    scalar.isASCII
                        && (CharacterSet.alphanumerics.contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
                }
            return safe ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// The words of `line`; an error names `parameter`, the setting the line came from.
    package static func split(
        _ line: String, parameter: PoolSizeError.Parameter = .command
    ) throws(PoolSizeError) -> [String] {
        var words: [String] = []
        var word = "", inWord = false
        var quote: Character? = nil
        var chars = line.makeIterator()
        while let c = chars.next() {
            switch (quote, c) {
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case ("'", _):
                word.append(c)
            case ("\"", "\\"):
                guard let next = chars.next() else {
                    throw .invalidParameter(
                        parameter, message: "ends with a backslash inside double quotes; close the quote")
                }
                if !"\"\\$`".contains(next) { word.append("\\") }
                word.append(next)
            case ("\"", _):
                word.append(c)
            case (nil, "'"), (nil, "\""):
                quote = c
                inWord = true
            case (nil, "\\"):
                guard let next = chars.next() else {
                    throw .invalidParameter(
                        parameter, message: "ends with a backslash; escape something after it or remove it")
                }
                word.append(next)
                inWord = true
            case (nil, " "), (nil, "\t"), (nil, "\n"):
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(c)
                inWord = true
            }
        }
        if let quote { throw .invalidParameter(parameter, message: "has an unterminated \(quote) quote; close it") }
        if inWord { words.append(word) }
        guard !words.isEmpty else {
            // Each setting's own example: a counter or a server is no workload command.
            let example =
                switch parameter {
                case .counterCommand:
                    "a command printing the running total of the pool's tasks, e.g. \(parameter.mention) 'cat /run/app/requests'"
                case .server:
                    "the command that starts the server, e.g. \(parameter.mention) "
                        + "'gunicorn --threads {size} -b 127.0.0.1:{port} app:app'"  // flag-spelling: not poolsize's
                case .load:
                    "the command that runs the load tool, e.g. \(parameter.mention) "
                        + "'pgbench -c {size} -T 10 -S bench'"
                default: "a command, e.g. \(parameter.mention) 'gzip -c data.bin'"
                }
            throw .invalidParameter(parameter, message: "is empty; give \(example)")
        }
        return words
    }
}
