import Foundation

/// A figure a load tool prints, named by a regular expression's group (`(?<p99>…)`) in a
/// `LoadToolParser` pattern; what each group may capture, and how it is read.
package enum LoadToolGroup: String, CaseIterable, Sendable {
    /// Requests (transactions, operations) per second: `1234.5`, or with a unit, `1234.5/s`,
    /// `74070/min`. Required: some pattern must capture it.
    case throughput
    /// Median latency.
    case p50
    /// 90th-percentile latency.
    case p90
    /// 99th-percentile latency.
    case p99
    /// 99.9th-percentile latency.
    case p999
    /// Largest latency.
    case max
    /// Mean latency.
    case mean
    /// Failed requests: a whole number. Captures of several patterns add up.
    case errors
    /// Requests the tool completed: a number.
    case requests
    /// How long the tool loaded the server (its own measure of the window): a number and a
    /// unit, seconds when it has none (`duration: 10 s`, `in 10.01s`).
    case duration
    /// At a rate (`{rate}`): arrivals the tool scheduled and did not send because all its
    /// senders were busy (k6's `dropped_iterations`): a whole number. A tool that prints none is
    /// taken to have sent every arrival, as one that never holds a request back does.
    case dropped
    /// The most requests the tool can have in flight at once (k6's `vus_max`, Vegeta's
    /// `-max-workers`): a whole number. With `dropped`, it tells whether the tool or the server
    /// held the arrivals back.
    case concurrency

    /// The groups that capture a latency: a number and a unit (`450us`, `450µs`, `1.23ms`,
    /// `2.1s`, `1.02m`), milliseconds when it has none, as wrk, pgbench and ab print them.
    package static let latencies: [LoadToolGroup] = [.p50, .p90, .p99, .p999, .max, .mean]

    /// The groups, listed for a message: `throughput, p50, …, duration`.
    package static var listed: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// What a capture of this group must look like, for the message when it does not.
    package var expected: String {
        switch self {
        case .throughput: return "a rate (1234.5, 1234.5/s, 74070/min)"
        case .errors, .dropped, .concurrency: return "a whole number"
        case .requests: return "a number"
        case .duration: return "a duration (10 s, 10.01s, 1.5m)"
        case .p50, .p90, .p99, .p999, .max, .mean: return "a latency (450us, 1.23ms, 2.1s)"
        }
    }

    /// The largest figure a capture may hold, in its group's unit: past 2^53 no file holds it
    /// exactly (`FiniteNumber.wholeLimit`) and a count of it does not fit an `Int`, and no
    /// machine measures that many requests a second, µs or seconds.
    package static let ceiling = Double(FiniteNumber.wholeLimit)

    /// The value `captured` holds in this group's unit (per second; µs for a latency; seconds
    /// for a duration; a count), or nil when it is not one (`expected`). Never negative or
    /// infinite; may be past `ceiling`, which the parser refuses on its own.
    package func value(_ captured: Substring) -> Double? {
        let text = captured.trimmingCharacters(in: .whitespaces)
        switch self {
        case .throughput: return Self.rate(text)
        case .errors, .dropped, .concurrency:
            guard let count = FiniteNumber.quantity(text), count == count.rounded(),
                count < Double(FiniteNumber.wholeLimit)
            else { return nil }
            return count
        case .requests: return FiniteNumber.quantity(text)
        case .duration: return Self.time(text, bareNanoseconds: 1e9, inNanoseconds: 1e9)
        case .p50, .p90, .p99, .p999, .max, .mean: return Self.time(text, bareNanoseconds: 1e6, inNanoseconds: 1e3)
        }
    }

    /// Units of a time a tool prints, in nanoseconds: each an exact Double, so a value is scaled
    /// by one multiplication and one division (the rounding of each, no more). Unlike the
    /// durations poolsize takes (`QuantityParser`), a bare `m` is read: wrk prints minutes so.
    static let timeUnits: [(suffix: String, nanoseconds: Double)] = [
        ("ns", 1), ("us", 1e3), ("µs", 1e3), ("μs", 1e3), ("ms", 1e6), ("sec", 1e9), ("s", 1e9), ("min", 6e10),
        ("m", 6e10), ("h", 3.6e12),
    ]

    /// The time in `text`, a number with one of `timeUnits` (spaces allowed between) or a bare
    /// number of `bareNanoseconds` each, in units of `inNanoseconds`.
    static func time(_ text: String, bareNanoseconds: Double, inNanoseconds: Double) -> Double? {
        func scaled(_ value: Double, _ unit: Double) -> Double? {
            let result = value * unit / inNanoseconds
            return result.isFinite ? result : nil
        }
        if let number = FiniteNumber.quantity(text) { return scaled(number, bareNanoseconds) }
        // Longest suffix first: `ms` is no `s`, `min` no `m`.
        for unit in timeUnits.sorted(by: { $0.suffix.count > $1.suffix.count }) where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
            guard let value = FiniteNumber.quantity(number) else { return goDuration(text).flatMap { scaled($0, 1) } }
            return scaled(value, unit.nanoseconds)
        }
        return nil
    }

    /// Nanoseconds in a Go duration of several parts, as k6 prints one past a minute
    /// (`1m2.5s`, `1h0m3s`): each part a number and a unit, no spaces; nil for anything else.
    static func goDuration(_ text: String) -> Double? {
        // Go's own units: `timeUnits` less `sec` and `min`, which no Go duration has.
        let units = timeUnits.filter { $0.suffix != "sec" && $0.suffix != "min" }
        var rest = Substring(text), total = 0.0, parts = 0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !digits.isEmpty, let value = Double(digits), value.isFinite else { return nil }
            rest = rest.dropFirst(digits.count)
            // In `timeUnits`' order `ms` is tried before `m`, and `ns`, `us` before `s`.
            guard let unit = units.first(where: { rest.hasPrefix($0.suffix) }) else { return nil }
            rest = rest.dropFirst(unit.suffix.count)
            total += value * unit.nanoseconds
            parts += 1
        }
        return parts > 1 && total.isFinite ? total : nil
    }

    /// Events per second in `text`: a bare number, or one over a time unit (`/s`, `/min`, …).
    static func rate(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard (1...2).contains(parts.count), let value = FiniteNumber.quantity(parts[0]) else { return nil }
        guard parts.count == 2 else { return value }
        guard let unit = QuantityParser.rateUnits.first(where: { $0.suffix == parts[1].lowercased() }) else {
            return nil
        }
        return value / unit.seconds
    }
}
