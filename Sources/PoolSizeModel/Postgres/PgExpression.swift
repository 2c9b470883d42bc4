/// An integer expression of a pgbench `\set` (the subset poolsize runs): integer literals,
/// `:variables`, `+ - * / %`, unary minus, parentheses and `random(lo, hi)`. Evaluated per
/// transaction (`PgProgram`), as pgbench does, so the same script file runs in both.
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

    /// `a op b`, or why it has none (division by zero, an overflow).
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
