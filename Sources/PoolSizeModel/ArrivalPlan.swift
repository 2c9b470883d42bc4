/// How tasks arrive in an open-loop sweep (`--arrival-rate`): at the intended times of a
/// seeded arrival process, whatever the pool is doing, so queueing delay shows in the latency.
public enum ArrivalProcess: String, Codable, Sendable, CaseIterable {
    /// Exponential gaps between arrivals (a Poisson process): how independent users arrive.
    case poisson
    /// Evenly spaced arrivals, one every 1/rate seconds: a timer or a batch feeder.
    case uniform
    /// Spaced by the user's load tool, given the rate through `{rate}` (a server sweep's
    /// `load`): k6's constant-arrival-rate, Vegeta's and wrk2's pacers space them evenly.
    case tool = "tool-paced"
}

/// The open-loop part of a sweep: the arrival rates to offer, how arrivals are spaced, and the
/// latency objective the recommendation must meet. Recorded in machine.json as `arrival`.
public struct ArrivalPlan: Equatable, Sendable, Codable {
    /// Offered arrival rates, ascending; one for `--arrival-rate 800/s`, several for a range
    /// (`200/s...2000/s:200`).
    public var rates: [ArrivalRate]
    /// How arrivals are spaced.
    public var process: ArrivalProcess
    /// The latency objective, µs, measured from each task's intended arrival; nil sizes for
    /// stability alone (the smallest size that keeps up with the rate).
    public var latencySLOMicroseconds: Double?
    /// The percentile the objective applies to, in (0, 100).
    public var sloPercentile: Double

    /// At most this many rates in one range, so a typo in the step is an error, not hours.
    public static let maximumRates = 50
    /// Rates above this are refused: one dispatcher thread cannot keep a finer schedule.
    public static let maximumRatePerSecond = 1_000_000.0

    /// A plan as given; `parse` checks what the user typed.
    public init(
        rates: [ArrivalRate], process: ArrivalProcess = .poisson, latencySLOMicroseconds: Double? = nil,
        sloPercentile: Double = 99
    ) {
        self.rates = rates
        self.process = process
        self.latencySLOMicroseconds = latencySLOMicroseconds
        self.sloPercentile = sloPercentile
    }

    /// Keys as machine.json spells them once snake_cased, units in the name.
    enum CodingKeys: String, CodingKey {
        case process, sloPercentile
        case rates = "ratesPerS"
        case latencySLOMicroseconds = "latencySloUs"
    }

    /// One rate, or several from a range.
    public var isRange: Bool { rates.count > 1 }

    /// The highest rate offered: the one a sweep's recommendation is for.
    public var topRate: ArrivalRate { rates.max() ?? 0 }

    /// The slowest rate a sweep accepts: trials.csv records rates to a thousandth per second.
    public static let minimumRatePerSecond = 0.001

    /// The rates in `text`: `800/s`, `48000/min`, or `LOW...HIGH:STEP` (`200/s...2000/s:200`,
    /// the step in the low end's unit, per second when bare).
    public static func parseRates(_ text: String) throws(PoolSizeError) -> [ArrivalRate] {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let usage = "write one rate (800/s, 48000/min) or a range with a step (200/s...2000/s:200)"
        guard trimmed.contains("...") else {
            return [
                ArrivalRate(
                    perSecond: try checked(QuantityParser.perSecond(trimmed, parameter: .arrivalRates), trimmed))
            ]
        }
        let ends = trimmed.components(separatedBy: "...")
        guard ends.count == 2, let colon = ends[1].lastIndex(of: ":") else {
            throw .invalidParameter(.arrivalRates, message: "'\(trimmed)' is not a range; \(usage)")
        }
        let low = try checked(QuantityParser.perSecond(ends[0], parameter: .arrivalRates), ends[0])
        let high = try checked(
            QuantityParser.perSecond(String(ends[1][..<colon]), parameter: .arrivalRates), String(ends[1][..<colon]))
        // The step is in the low end's unit: `60/min...600/min:60` steps by 60 per minute.
        let stepText = String(ends[1][ends[1].index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        let unit =
            ends[0].contains("/") ? "/" + ends[0].split(separator: "/").last!.trimmingCharacters(in: .whitespaces) : ""
        let step = try QuantityParser.perSecond(
            stepText.contains("/") ? stepText : stepText + unit, parameter: .arrivalRates)
        guard step > 0, step.isFinite else {
            throw .invalidParameter(.arrivalRates, message: "the step in '\(trimmed)' must be more than 0; \(usage)")
        }
        guard high > low else {
            throw .invalidParameter(
                .arrivalRates, message: "the range '\(trimmed)' must go up (its end above its start); \(usage)")
        }
        // Counted as a Double first: a step of 1e-300 makes more rates than an Int holds.
        let steps = ((high - low) / step + 1e-9).rounded(.down)
        guard steps < Double(maximumRates) else {
            let count = UnitFormat.number(steps + 1)
            throw .invalidParameter(
                .arrivalRates,
                message:
                    "'\(trimmed)' has \(count) rates, more than the \(maximumRates) a sweep may measure; take a larger step"
            )
        }
        let count = Int(steps) + 1
        var values = (0..<count).map { low + Double($0) * step }
        if let last = values.last, high - last > step * 1e-6 { values.append(high) }
        let rates = values.map(ArrivalRate.init(perSecond:))
        // Rates are told apart by their thousandths per second (trials.csv, --resume).
        if Set(rates).count < rates.count {
            throw .invalidParameter(
                .arrivalRates,
                message:
                    "the step in '\(trimmed)' puts rates less than 0.001/s apart, which the results cannot tell apart; take a larger step"
            )
        }
        return rates
    }

    private static func checked(_ rate: Double, _ text: String) throws(PoolSizeError) -> Double {
        guard rate > 0 else {
            throw .invalidParameter(
                .arrivalRates,
                message:
                    "a rate must be more than 0, got '\(text.trimmingCharacters(in: .whitespaces))'; write it like 800/s"
            )
        }
        guard rate >= minimumRatePerSecond else {
            throw .invalidParameter(
                .arrivalRates,
                message:
                    "'\(text.trimmingCharacters(in: .whitespaces))' is under 0.001/s (3.6/h), slower than the results record; offer at least 0.001/s"
            )
        }
        guard rate <= maximumRatePerSecond else {
            throw .invalidParameter(
                .arrivalRates,
                message:
                    "'\(text.trimmingCharacters(in: .whitespaces))' is over \(Int(maximumRatePerSecond))/s, faster than one dispatcher thread can schedule; size such a service per host at a lower rate"
            )
        }
        return rate
    }
}
