extension RunInfo {
    /// The trials a recorded plan asks for, counted and searched without listing them: a
    /// damaged machine.json may ask for 2^53 repetitions, which no report could enumerate.
    package struct PlannedTrials: Sendable {
        /// One planned trial.
        package struct Key: Hashable, Sendable {
            /// The pool, tier and primitive.
            package var combination: Combination
            /// The pool size.
            package var size: Int
            /// The repetition, from 1.
            package var repetition: Int

            /// A trial by its parts.
            package init(combination: Combination, size: Int, repetition: Int) {
                self.combination = combination
                self.size = size
                self.repetition = repetition
            }
        }

        /// The distinct combinations, in plan order.
        package let combinations: [Combination]
        /// The distinct sizes, in plan order.
        package let sizes: [Int]
        /// Measured trials per size and combination.
        package let repetitions: Int

        /// The plan's trials; repeated entries (which a sweep never records) count once.
        package init(combinations: [Combination], sizes: [Int], repetitions: Int) {
            var seenCombinations = Set<Combination>(), seenSizes = Set<Int>()
            self.combinations = combinations.filter { seenCombinations.insert($0).inserted }
            self.sizes = sizes.filter { seenSizes.insert($0).inserted }
            self.repetitions = max(repetitions, 0)
        }

        /// How many trials the plan asks for: a Double, since a damaged file's product may pass
        /// `Int.max`.
        package var count: Double { Double(combinations.count) * Double(sizes.count) * Double(repetitions) }

        /// Whether the plan asks for `trial`.
        package func contains(_ trial: Key) -> Bool {
            trial.repetition >= 1 && trial.repetition <= repetitions && sizes.contains(trial.size)
                && combinations.contains(trial.combination)
        }

        /// The first `limit` planned trials not in `present`, in plan order. Each trial skipped is
        /// one of `present`, so this takes at most `present.count + limit` steps however many
        /// the plan holds.
        package func missing(from present: Set<Key>, limit: Int) -> [Key] {
            var found: [Key] = []
            guard limit > 0, repetitions > 0 else { return found }
            for combination in combinations {
                for size in sizes {
                    for repetition in 1...repetitions {
                        let trial = Key(combination: combination, size: size, repetition: repetition)
                        guard !present.contains(trial) else { continue }
                        found.append(trial)
                        if found.count == limit { return found }
                    }
                }
            }
            return found
        }
    }
}
