import PoolSizeStats

extension Recommendation {
    /// The throughput curve's evidence: its knee, its peak, the tolerance the knee was found
    /// with, and the USL fit or why there is none. A closed loop's answer (`.knee`, `.formula`)
    /// always carries it; an open loop's carries its highest rate's curve where that curve has a
    /// knee.
    public struct ThroughputCurve: Equatable, Sendable, Codable {
        /// The knee: the smallest queue count whose throughput is not distinguishable from
        /// `tolerance` below the peak.
        public var kneeQueueCount: Int
        /// Mean throughput at the knee, tasks/s.
        public var kneeThroughputPerSecond: Double
        /// The queue count with the highest mean throughput.
        public var peakQueueCount: Int
        /// That throughput, tasks/s.
        public var peakThroughputPerSecond: Double
        /// The knee's tolerance below the peak.
        public var tolerance: Double
        /// Universal Scalability Law fit of the curve, when the data support one.
        public var usl: USLFit?
        /// Why no USL fit is given, when it is refused.
        public var uslRefusal: String?

        /// A curve's evidence from its figures (`Recommender` computes them).
        public init(
            kneeQueueCount: Int, kneeThroughputPerSecond: Double, peakQueueCount: Int,
            peakThroughputPerSecond: Double, tolerance: Double, usl: USLFit? = nil, uslRefusal: String? = nil
        ) {
            self.kneeQueueCount = kneeQueueCount
            self.kneeThroughputPerSecond = kneeThroughputPerSecond
            self.peakQueueCount = peakQueueCount
            self.peakThroughputPerSecond = peakThroughputPerSecond
            self.tolerance = tolerance
            self.usl = usl
            self.uslRefusal = uslRefusal
        }

        /// The keys recommendation.json gives these figures, at the top level beside the
        /// header's; the file's names predate the properties' (one noun, queue count, for every
        /// size).
        enum CodingKeys: String, CodingKey {
            case tolerance, usl, uslRefusal
            case kneeQueueCount = "kneePoolSize", peakQueueCount = "peakPoolSize"
            case kneeThroughputPerSecond = "kneeThroughputPerS"
            case peakThroughputPerSecond = "peakThroughputPerS"
        }

        /// The curve an open loop's object holds, or nil when it holds none (its highest rate's
        /// curve had no knee); once the knee is there, every figure `encode(to:)` always writes
        /// is required.
        static func ifPresent(in decoder: any Decoder) throws -> ThroughputCurve? {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            return c.contains(.kneeQueueCount) ? try ThroughputCurve(from: decoder) : nil
        }
    }
}
