import ArgumentParser

public struct PoolSizeCommand: ParsableCommand {
    public init() {}
    public func run() throws {}
}
