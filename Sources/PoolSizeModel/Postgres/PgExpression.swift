/// An integer expression of a pgbench `\set` (the subset poolsize runs): integer literals,
/// `:variables`, `+ - * / %`, unary minus, parentheses and `random(lo, hi)`. Evaluated per
/// transaction, as pgbench does, so the same script file runs in both.
package indirect enum PgExpression: Equatable, Sendable {
    /// An integer literal.
    case integer(Int64)
    /// A variable set before (`:aid`), or defined for the whole run (`:scale`).
    case variable(String)
    /// A uniformly drawn integer between the two bounds, both included.
    case random(PgExpression, PgExpression)
    /// `-x`.
    case negate(PgExpression)
    /// A binary operation.
    case binary(Character, PgExpression, PgExpression)

    /// Its value with `variables` set, drawing from `random`; nil with why when it has none (an
    /// unset variable, division by zero, an overflow, a random range whose bounds cross).
    package func evaluate(_ variables: [String: Int64], random: (ClosedRange<Int64>) -> Int64) -> Result<
        Int64, PgScriptFailure
    > {
        switch self {
        case let .integer(value): return .success(value)
        case let .variable(name):
            guard let value = variables[name] else { return .failure(.init("variable :\(name) is not set")) }
            return .success(value)
        case let .negate(inner):
            return inner.evaluate(variables, random: random).flatMap { value in
                value == .min ? .failure(.init("integer out of range")) : .success(-value)
            }
        case let .random(low, high):
            return low.evaluate(variables, random: random).flatMap { lo in
                high.evaluate(variables, random: random).flatMap { hi in
                    lo <= hi
                        ? .success(random(lo...hi))
                        : .failure(.init("random(\(lo), \(hi)): the lower bound is above the upper"))
                }
            }
        case let .binary(op, left, right):
            return left.evaluate(variables, random: random).flatMap { a in
                right.evaluate(variables, random: random).flatMap { b in Self.apply(op, a, b) }
            }
        }
    }

    static func apply(_ op: Character, _ a: Int64, _ b: Int64) -> Result<Int64, PgScriptFailure> {
        let result: (partialValue: Int64, overflow: Bool)
        switch op {
        case "+": result = a.addingReportingOverflow(b)
        case "-": result = a.subtractingReportingOverflow(b)
        case "*": result = a.multipliedReportingOverflow(by: b)
        case "/", "%":
            guard b != 0 else { return .failure(.init("division by zero")) }
            result = op == "/" ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
        default: return .failure(.init("unknown operator \(op)"))
        }
        return result.overflow ? .failure(.init("integer out of range")) : .success(result.partialValue)
    }

    /// The variables it reads.
    package var variables: Set<String> {
        switch self {
        case .integer: return []
        case let .variable(name): return [name]
        case let .negate(inner): return inner.variables
        case let .random(a, b), let .binary(_, a, b): return a.variables.union(b.variables)
        }
    }
}
