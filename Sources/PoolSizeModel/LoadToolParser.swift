import Foundation

/// Reads a load tool's figures from what it printed. Built from the texts of the `parse`
/// setting, each one of:
/// - a preset's name, `wrk`, `pgbench` or `locust` (`Preset`): that tool's own patterns;
/// - a regular expression (Swift's `Regex` syntax, PCRE-like) whose named groups capture
///   figures: `throughput`, `p50`, `p90`, `p99`, `p999`, `max`, `mean`, `errors`, `requests`,
///   `duration`, `dropped` and `concurrency` (`LoadToolGroup` says what each may capture: a latency is a number and a unit,
///   `450us`, `450µs`, `1.23ms`, `2.1s`, milliseconds when bare; a duration seconds when bare).
///
/// Several texts make one parser (presets and expressions mixed). Each expression must name at
/// least one of those groups and no other, and one of them must capture `throughput`: a set
/// without it is refused, as an expression that does not compile is, each with one line naming
/// `parse`.
///
/// Every expression is searched through the whole output, `^` and `$` at the ends of each line.
/// A figure captured more than once is taken from its latest capture in the output (a tool
/// that prints progress prints its summary last), from stdout when stdout has one, else from
/// stderr; but `errors` adds up: each expression's latest capture of it, added over the
/// expressions (wrk prints failed answers and socket errors on separate lines).
package struct LoadToolParser: Equatable, Sendable {
    /// The texts as given.
    package let texts: [String]
    /// The expressions searched: the presets' patterns in their place, each one once.
    package let patterns: [String]
    /// The figures each of `patterns` captures.
    let groups: [[LoadToolGroup]]
    /// Expressions whose match is the tool saying it was the limit (`Preset.saturationPatterns`).
    package let saturation: [String]

    /// A parser from `texts`; errors name the setting (`parse`).
    package init(_ texts: [String]) throws(PoolSizeError) {
        guard !texts.isEmpty else { throw .invalidParameter(.parse, message: "is empty; \(Self.usage)") }
        var patterns: [String] = [], saturation: [String] = []
        for text in texts {
            let word = text.trimmingCharacters(in: .whitespaces)
            if let preset = Preset(rawValue: word) {
                patterns += preset.patterns.filter { !patterns.contains($0) }
                saturation += preset.saturationPatterns.filter { !saturation.contains($0) }
            } else if Self.isBareWord(word) {
                // A tool's name (k6, vegeta), meant as a preset: as an expression it would
                // match the name and capture nothing.
                throw .invalidParameter(
                    .parse,
                    message:
                        "'\(word)' is no preset; the presets are \(Preset.listed), and for another tool give a regular expression with named groups, e.g. 'tps = (?<throughput>[\\d.]+)'"
                )
            } else if !patterns.contains(text) {
                patterns.append(text)
            }
        }
        var groups: [[LoadToolGroup]] = []
        for pattern in patterns { groups.append(try Self.check(pattern)) }
        guard groups.contains(where: { $0.contains(.throughput) }) else {
            throw .invalidParameter(
                .parse,
                message:
                    "captures no throughput; add an expression with a group named throughput, e.g. 'Requests/sec:\\s*(?<throughput>[\\d.]+)', or name a preset (\(Preset.listed))"
            )
        }
        self.texts = texts
        self.patterns = patterns
        self.groups = groups
        self.saturation = saturation
    }

    /// A preset's parser.
    package init(preset: Preset) {
        texts = [preset.rawValue]
        patterns = preset.patterns
        saturation = preset.saturationPatterns
        // A preset's expressions pass `check` (its tests hold that): nothing to throw here.
        groups = preset.patterns.map { (try? Self.check($0)) ?? [] }
    }

    /// A name and nothing else: letters, digits, `-` and `_`, so no regular expression's
    /// syntax and no named group.
    static func isBareWord(_ text: String) -> Bool {
        !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// Whether `pattern` is one of a preset's expressions.
    static func isPresets(_ pattern: String) -> Bool {
        Preset.allCases.contains { $0.patterns.contains(pattern) }
    }

    /// What `parse` takes, for an error.
    static let usage =
        "name a preset (\(Preset.listed)) or give regular expressions with named groups, e.g. 'tps = (?<throughput>[\\d.]+)'"

    /// The figures `pattern` captures, or the error that says why it cannot be used.
    static func check(_ pattern: String) throws(PoolSizeError) -> [LoadToolGroup] {
        let quoted = shown(pattern)
        guard !pattern.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidParameter(.parse, message: "has an empty expression; \(usage)")
        }
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            let reason = String(describing: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            throw .invalidParameter(
                .parse, message: "\(quoted) is not a regular expression: \(TerminalText.excerpt(reason, limit: 120))")
        }
        for name in groupNames(in: pattern) where LoadToolGroup(rawValue: name) == nil {
            guard regex.contains(captureNamed: name) else { continue }
            throw .invalidParameter(
                .parse,
                message:
                    "\(quoted) has a group named '\(TerminalText.escape(name))', which is no figure; the groups are \(LoadToolGroup.listed)"
            )
        }
        let groups = LoadToolGroup.allCases.filter { regex.contains(captureNamed: $0.rawValue) }
        guard !groups.isEmpty else {
            throw .invalidParameter(
                .parse,
                message:
                    "\(quoted) captures no figure; name its group, e.g. (?<throughput>[\\d.]+) (the groups are \(LoadToolGroup.listed))"
            )
        }
        return groups
    }

    /// `pattern` quoted in a message: as typed, its first 60 characters. Not escaped unless it
    /// holds a control character: the command line escapes each error line it prints, and a
    /// second escape would double the backslashes before `n`, `t` or `x`, of which a regular
    /// expression has many.
    static func shown(_ pattern: String) -> String {
        guard !pattern.unicodeScalars.contains(where: TerminalText.needsEscape) else {
            return "'\(TerminalText.excerpt(pattern))'"
        }
        return "'\(pattern.prefix(60))\(pattern.count > 60 ? "…" : "")'"
    }

    /// The names of the groups `pattern` defines (`(?<name>`, `(?P<name>`, `(?'name'`), outside
    /// escapes, `\Q…\E` quotes and character classes. Only for telling a misnamed group: the
    /// regular expression itself says which names it really has.
    static func groupNames(in pattern: String) -> [String] {
        let characters = Array(pattern)
        var names: [String] = []
        var index = 0, inClass = false
        func at(_ offset: Int) -> Character? { offset < characters.count ? characters[offset] : nil }
        while let character = at(index) {
            if character == "\\" {
                if at(index + 1) == "Q" {
                    var end = index + 2
                    while at(end) != nil && !(at(end) == "\\" && at(end + 1) == "E") { end += 1 }
                    index = end + 2
                } else {
                    index += 2
                }
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
                index += 1
                continue
            }
            if character == "[" {
                inClass = true
                index += 1
                if at(index) == "^" { index += 1 }
                // A `]` first in a class is one of its characters.
                if at(index) == "]" { index += 1 }
                continue
            }
            if character == "(", at(index + 1) == "?" {
                var start = index + 2
                var close: Character?
                switch (at(start), at(start + 1)) {
                case ("<", _): (close, start) = (">", start + 1)
                case ("'", _): (close, start) = ("'", start + 1)
                case ("P", "<"): (close, start) = (">", start + 2)
                default: close = nil
                }
                if let close {
                    var end = start
                    while let c = at(end), c.isLetter || c.isNumber || c == "_" { end += 1 }
                    if end > start, at(end) == close { names.append(String(characters[start..<end])) }
                }
            }
            index += 1
        }
        return names
    }

    /// The figures in a tool's output; throws when it printed no throughput or a figure that is
    /// not one (`Unreadable`).
    package func parse(standardOutput: String, standardError: String = "") throws(Unreadable) -> LoadToolFigures {
        let regexes = patterns.map { try? Regex($0).anchorsMatchLineEndings() }
        let out = captures(in: standardOutput, regexes), err = captures(in: standardError, regexes)
        var latest = err.latest.merging(out.latest) { _, fromOut in fromOut }
        latest[.errors] = nil
        func value(_ group: LoadToolGroup) throws(Unreadable) -> Double? {
            guard let text = latest[group] else { return nil }
            guard let value = group.value(text) else { throw .notAFigure(group: group, captured: String(text)) }
            guard value < LoadToolGroup.ceiling else { throw .outOfRange(group: group, captured: String(text)) }
            return value
        }
        guard let throughput = try value(.throughput) else { throw .noThroughput }
        // A preset's throughput line is printed once per run: more than one, differing, in the
        // stream the figure was taken from (a wrapper that ran the tool twice) is taken at its
        // last, and told. A user's expression may well capture progress lines before a summary.
        let printed = (out.latest[.throughput] != nil ? out : err).throughputs
        let distinct = Set(printed.compactMap { LoadToolGroup.throughput.value($0) }).count
        var errors = 0.0
        for text in err.errors.merging(out.errors, uniquingKeysWith: { _, fromOut in fromOut }).values {
            guard let count = LoadToolGroup.errors.value(text) else {
                throw .notAFigure(group: .errors, captured: String(text))
            }
            errors += count
        }
        let percentiles = try (
            p50: value(.p50), p90: value(.p90), p99: value(.p99), p999: value(.p999), max: value(.max)
        )
        let anyPercentile = [percentiles.p50, percentiles.p90, percentiles.p99, percentiles.p999, percentiles.max]
            .contains { $0 != nil }
        return LoadToolFigures(
            throughputPerSecond: throughput, saidBound: saidBound(standardOutput, standardError),
            latency: anyPercentile
                ? LatencyPercentiles(
                    p50: percentiles.p50 ?? 0, p90: percentiles.p90 ?? 0, p99: percentiles.p99 ?? 0,
                    p999: percentiles.p999 ?? 0, max: percentiles.max ?? 0) : nil,
            meanLatencyMicroseconds: try value(.mean),
            errors: Int(min(errors, Double(FiniteNumber.wholeLimit))),
            requests: try value(.requests),
            durationSeconds: try value(.duration),
            throughputsPrinted: max(1, distinct),
            dropped: try value(.dropped),
            concurrency: try value(.concurrency).map { Int($0) })
    }

    /// Where the tool first says it was the limit (`saturation`), in stderr then stdout: its
    /// line from the words matched on (a log line's time and level left out), trimmed; nil when
    /// it says nothing of the kind.
    func saidBound(_ standardOutput: String, _ standardError: String) -> String? {
        let regexes = saturation.compactMap { try? Regex($0) }
        guard !regexes.isEmpty else { return nil }
        for text in [standardError, standardOutput] {
            for line in text.split(whereSeparator: \.isNewline) {
                for regex in regexes {
                    if let match = line.firstMatch(of: regex) {
                        return line[match.range.lowerBound...].trimmingCharacters(in: .whitespaces)
                    }
                }
            }
        }
        return nil
    }

    /// In `text`: each figure's latest capture (an empty one is none), each expression's
    /// latest capture of `errors`, by the expression's index, and every capture of `throughput`
    /// by a preset's expression.
    func captures(in text: String, _ regexes: [Regex<AnyRegexOutput>?]) -> (
        latest: [LoadToolGroup: Substring], errors: [Int: Substring], throughputs: [Substring]
    ) {
        var latest: [LoadToolGroup: (at: String.Index, text: Substring)] = [:]
        var errors: [Int: Substring] = [:]
        var throughputs: [Substring] = []
        for (index, regex) in regexes.enumerated() {
            guard let regex, !text.isEmpty else { continue }
            for match in text.matches(of: regex) {
                for group in groups[index] {
                    guard let captured = match.output[group.rawValue]?.substring, !captured.isEmpty else { continue }
                    if group == .errors { errors[index] = captured }
                    if group == .throughput && Self.isPresets(patterns[index]) { throughputs.append(captured) }
                    // At the same place, the later expression's capture is taken.
                    if let seen = latest[group], seen.at > match.range.lowerBound { continue }
                    latest[group] = (match.range.lowerBound, captured)
                }
            }
        }
        return (latest.mapValues(\.text), errors, throughputs)
    }
}
