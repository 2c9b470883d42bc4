import PoolSizeCLI
PoolSizeCommand.main()
