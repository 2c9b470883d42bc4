/// Reads a `\set` expression (`PgExpression`'s subset of pgbench's): a recursive descent over
/// the characters, refusing anything else with what it found and where.
struct PgExpressionParser {
    private let text: [Character]
    private var index = 0

    init(_ text: String) { self.text = Array(text) }

    /// The expression the whole text holds; throws the reason (without the line, which the
    /// script's parser adds) when it holds anything else.
    static func parse(_ text: String) throws(PgScriptFailure) -> PgExpression {
        var parser = PgExpressionParser(text)
        let expression = try parser.sum()
        parser.skipSpaces()
        if parser.index < parser.text.count {
            throw PgScriptFailure("unexpected \(parser.rest) after the expression")
        }
        return expression
    }

    private var rest: String { "'\(TerminalText.escape(String(text[index...].prefix(20))))'" }

    private mutating func skipSpaces() {
        while index < text.count, text[index] == " " || text[index] == "\t" { index += 1 }
    }

    private mutating func take(_ character: Character) -> Bool {
        skipSpaces()
        guard index < text.count, text[index] == character else { return false }
        index += 1
        return true
    }

    private mutating func sum() throws(PgScriptFailure) -> PgExpression {
        var left = try product()
        while true {
            skipSpaces()
            guard index < text.count, text[index] == "+" || text[index] == "-" else { return left }
            let op = text[index]
            index += 1
            left = .binary(op, left, try product())
        }
    }

    private mutating func product() throws(PgScriptFailure) -> PgExpression {
        var left = try unary()
        while true {
            skipSpaces()
            guard index < text.count, "*/%".contains(text[index]) else { return left }
            let op = text[index]
            index += 1
            left = .binary(op, left, try unary())
        }
    }

    private mutating func unary() throws(PgScriptFailure) -> PgExpression {
        if take("-") { return .negate(try unary()) }
        if take("+") { return try unary() }
        return try primary()
    }

    private mutating func primary() throws(PgScriptFailure) -> PgExpression {
        skipSpaces()
        guard index < text.count else { throw PgScriptFailure("the expression ends too soon") }
        if take("(") {
            let inner = try sum()
            guard take(")") else { throw PgScriptFailure("a ')' is missing") }
            return inner
        }
        if text[index] == ":" {
            index += 1
            let name = word()
            guard !name.isEmpty else { throw PgScriptFailure("':' is not followed by a variable name") }
            return .variable(name)
        }
        if text[index].isASCII && text[index].isNumber {
            let digits = String(text[index...].prefix { $0.isASCII && $0.isNumber })
            index += digits.count
            if index < text.count, text[index] == "." || text[index] == "e" || text[index] == "E" {
                throw PgScriptFailure("only integers are supported, not \(rest)")
            }
            guard let value = Int64(digits) else { throw PgScriptFailure("\(digits) is out of range") }
            return .integer(value)
        }
        let name = word()
        guard !name.isEmpty else { throw PgScriptFailure("unexpected \(rest)") }
        guard take("(") else { throw PgScriptFailure("unknown name '\(name)'") }
        guard name.lowercased() == "random" else {
            throw PgScriptFailure("function \(name)() is not supported (random(lo, hi) is)")
        }
        let low = try sum()
        guard take(",") else { throw PgScriptFailure("random takes two arguments, random(lo, hi)") }
        let high = try sum()
        guard take(")") else { throw PgScriptFailure("random takes two arguments, random(lo, hi)") }
        return .random(low, high)
    }

    private mutating func word() -> String {
        let name = String(text[index...].prefix(while: PgScript.isNameCharacter))
        index += name.count
        return name
    }
}
