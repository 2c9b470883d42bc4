import Foundation

extension GnuplotScript {
    /// `set title 'Caption'."\n".'headline' noenhanced`: the line break is the only double-quoted
    /// string and holds no user text; the headline carries the workload name, which may come from
    /// someone else's run directory, so it is a single-quoted literal. `noenhanced` keeps
    /// `db_primary`'s underscore from being read as markup.
    static func title(_ caption: String, _ headline: String) -> String {
        "set title \(quote(caption)).\"\\n\".\(quote(headline)) noenhanced"
    }

    /// The one way user text enters a script: a single-quoted gnuplot string. gnuplot expands
    /// backquoted commands and `@macros` only outside single quotes, and a single-quoted string
    /// has no escapes but `''` for a quote.
    static func quote(_ text: String) -> String {
        "'" + inert(text).replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// A `#` comment line of a script or data file: one line whatever `text` holds, so a newline
    /// in a workload name cannot end the comment and start a command.
    static func comment(_ text: String) -> String {
        "# " + inert(text)
    }

    /// `text` on one line with nothing gnuplot could run: a line break would end a comment or a
    /// command, so control characters become spaces; backquotes become U+02CB, which looks the
    /// same, so no later edit that moves the text out of single quotes can make it a command.
    static func inert(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    scalar.properties.generalCategory == .control ? " " : scalar == "`" ? "\u{02CB}" : scalar
                }))
    }

    /// A number for a script or data file: up to 6 significant digits, no locale, `NaN` for
    /// undefined values (gnuplot skips those points).
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "NaN" }
        if value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%.6g", value)
    }

    /// A number for a gnuplot expression, always with a decimal point: gnuplot divides integers
    /// as integers (`2 / 1000` is 0), so every model parameter must be a real.
    static func real(_ value: Double) -> String {
        let text = number(value)
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "N" }) ? text : text + ".0"
    }

    /// A data-file string cell: double-quoted so gnuplot reads a label with spaces as one column
    /// (data files are read, never evaluated; a line break would still split the row).
    static func label(_ text: String) -> String {
        "\"" + inert(text).replacingOccurrences(of: "\"", with: "'") + "\""
    }
}
