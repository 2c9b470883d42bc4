extension GroupRule {
    /// What is wrong with a pattern the regex engine refused, in words a user can act on:
    /// NSRegularExpression's own error names no cause ("The operation could not be completed").
    /// Checks what a pattern written in a hurry gets wrong (a shell's `*`, an unclosed group or
    /// class, a trailing backslash) and says only that the engine refused anything else.
    package static func fault(of pattern: String) -> String {
        var openGroups = 0, inClass = false, escaped = false
        // True where a quantifier has nothing to repeat: at the start, after `(` or `|`.
        var atStart = true
        var previous: Character?
        for character in pattern {
            defer { previous = character }
            if escaped {
                escaped = false
                atStart = false
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
                atStart = false
                continue
            }
            switch character {
            case "[":
                inClass = true
            case "(":
                openGroups += 1
                atStart = true
                continue
            case ")":
                guard openGroups > 0 else { return "a ')' closes no '('" }
                openGroups -= 1
            case "|":
                atStart = true
                continue
            case "*", "+", "?":
                // `(?i)`, `(?:…)`: a group's options, not a quantifier.
                if atStart && !(character == "?" && previous == "(") {
                    return "'\(character)' at its start has nothing to repeat"
                }
            default:
                break
            }
            atStart = false
        }
        if escaped { return "it ends in a lone '\\'" }
        if inClass { return "a '[' is never closed" }
        if openGroups > 0 { return openGroups == 1 ? "a '(' is never closed" : "\(openGroups) '(' are never closed" }
        return "ICU's regular expressions do not read it"
    }
}
