// `import PoolSize` is all a Swift program needs: the pool, the sweep API, and the value types
// and analysis their signatures use. Only those are public in the targets below (the rest is
// `package`, for the CLI and the tests); scripts/public-api.sh counts them.
@_exported import PoolSizeAnalysis
@_exported import PoolSizeKit
@_exported import PoolSizeModel
@_exported import PoolSizeOutput
@_exported import PoolSizeStats
