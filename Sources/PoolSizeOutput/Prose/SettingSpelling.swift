import PoolSizeModel

/// How a sentence of advice names the setting to change: as the command line's flag, for the
/// command's console and reports (`--sizes 1...16`), or as the library's setting, for what
/// `Sweep.run()` returns to Swift code (`` `sizes` 1...16 ``), which no flag sets.
package enum SettingSpelling: Sendable {
    /// The flag: `--sizes`, `--repeat`.
    case flags
    /// The setting's name in backquotes (`PoolSizeError.Parameter.mention`).
    case settings

    /// `parameter` as this spelling writes it.
    package func name(_ parameter: PoolSizeError.Parameter) -> String {
        guard self == .flags else { return parameter.mention }
        switch parameter {
        case .sizes: return "--sizes"
        case .repetitions: return "--repeat"
        default: return parameter.mention
        }
    }
}
