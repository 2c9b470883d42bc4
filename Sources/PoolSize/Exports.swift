// `import PoolSize` is all a Swift program needs: the pool, the sweep API, and the value types
// and analysis their signatures use.
@_exported import PoolSizeAnalysis
@_exported import PoolSizeKit
@_exported import PoolSizeModel
@_exported import PoolSizeOutput
@_exported import PoolSizeStats
