/// One layer's rule of thumb applied to a chain: one knob set as the rule says (gunicorn's
/// 2 × cores + 1 workers, HikariCP's pool), the other knobs at the answer's values, so that the
/// cell it gives is measured beside the answer and its throughput read against the best.
package struct ChainRule: Equatable, Sendable {
    /// The rule's name: `2 × cores + 1`, `a connection per thread`.
    package var name: String
    /// The knob the rule sets.
    package var knob: String
    /// What the rule gives the knob.
    package var value: Int
    /// The cell it gives: the answer's, with `knob` (and the knobs tied to it) at `value`, or at
    /// the largest size that fits when the rule is a limit; nil when no size of the knob is it.
    package var cell: KnobCell?
    /// Why `cell` is nil, or what was done to find it ("the largest size within it").
    package var note: String?

    package init(name: String, knob: String, value: Int, cell: KnobCell?, note: String? = nil) {
        self.name = name
        self.knob = knob
        self.value = value
        self.cell = cell
        self.note = note
    }
}
