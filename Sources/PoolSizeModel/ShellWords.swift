/// Splits a command line into its words as a POSIX shell would (quotes, backslashes), without
/// a shell: no variables, globs, pipes or redirections. `--exec 'grep -c "a b" file'` runs
/// `grep` with the arguments `-c`, `a b` and `file`; whoever wants a shell writes `sh -c '…'`.
package enum ShellWords {
    package static func split(_ line: String, flag: String = "--exec") throws(PoolSizeError) -> [String] {
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
                guard let next = chars.next() else { throw .invalidOption(flag: flag, message: "ends with a backslash inside double quotes; close the quote") }
                if !"\"\\$`".contains(next) { word.append("\\") }
                word.append(next)
            case ("\"", _):
                word.append(c)
            case (nil, "'"), (nil, "\""):
                quote = c
                inWord = true
            case (nil, "\\"):
                guard let next = chars.next() else { throw .invalidOption(flag: flag, message: "ends with a backslash; escape something after it or remove it") }
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
        if let quote { throw .invalidOption(flag: flag, message: "has an unterminated \(quote) quote; close it") }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw .invalidOption(flag: flag, message: "is empty; give a command, e.g. --exec 'gzip -c data.bin'") }
        return words
    }
}
