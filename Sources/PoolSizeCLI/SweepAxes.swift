import PoolSizeModel

/// The pool kinds, tiers and primitives a sweep crosses, as `SweepAxisOptions` resolved them.
struct SweepAxes {
    var pools: [PoolKind]
    var tiers: [QoSTier]
    var primitives: [PrimitiveKind]
}
