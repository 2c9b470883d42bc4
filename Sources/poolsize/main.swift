import PoolSizeCLI
import Foundation

exit(PoolSizeCommand.runMain())
