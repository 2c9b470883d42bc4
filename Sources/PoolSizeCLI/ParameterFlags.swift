import Foundation
import PoolSizeModel

/// The one table from a library setting (`PoolSizeError.Parameter`) to the flag that sets it on
/// the command line. The library names settings, never flags (docs/conventions.md); whatever
/// the command line prints of a library text goes through `word`, which writes each setting the
/// text mentions (its name in backquotes) as its flag (`--sizes`).
enum ParameterFlags {
    /// The flag that sets `parameter`, as the user types it.
    static func flag(_ parameter: PoolSizeError.Parameter) -> String {
        switch parameter {
        case .sizes: return "--sizes"
        case .sizesFrom: return "--sizes-from"
        case .repetitions: return "--repeat"
        case .warmupTrials: return "--warmup"
        case .cores: return "--cores"
        case .targetUtilization: return "--target-utilization"
        case .tolerance: return "--tolerance"
        case .pools: return "--pool"
        case .tiers: return "--qos"
        case .primitives: return "--primitive"
        case .readRatio: return "--read-ratio"
        case .trialMilliseconds: return "--trial-ms"
        case .trialMargin: return "--trial-margin"
        case .contend: return "--contend"
        case .busyRetries: return "--busy-retries"
        case .search: return "--search"
        case .budgetSeconds: return "--budget"
        case .arrivalRates: return "--arrival-rate"
        case .arrivalProcess: return "--arrivals"
        case .latencySLO: return "--latency-slo"
        case .sloPercentile: return "--slo-percentile"
        case .taskTimeout: return "--task-timeout"
        case .workload: return "--workload"
        case .trace: return "--trace"
        case .command: return "--exec"
        case .commandBaseline: return "--exec-baseline"
        case .scratchDirectory: return "--scratch"
        case .httpURL: return "--http"
        case .connections: return "--connections"
        case .httpMethod: return "--http-method"
        case .httpHeaders: return "--http-header"
        case .httpSecretHeaders: return "--http-secret-header"
        case .httpSecretQuery: return "--http-secret-query"
        case .httpBody: return "--http-body"
        case .httpCACertificates: return "--http-cacert"
        case .httpInsecure: return "--http-insecure"
        case .server: return "--server"
        case .resize: return "--resize"
        case .readyTimeout: return "--ready-timeout"
        case .settle: return "--settle"
        case .stopSignal: return "--stop-signal"
        case .load: return "--load"
        case .parse: return "--parse"
        case .postgres: return "--postgres"
        case .sql: return "--sql"
        case .sqlFile: return "--sql-file"
        case .sqlDefines: return "--define"
        case .postgresClient: return "--client"
        case .database: return "--database"
        case .databaseConnections: return "--database-connections"
        case .runDirectory: return "--out"
        case .replaceRun: return "--force"
        case .resumeRun: return "--resume"
        case .plotsDirectory: return "--plots"
        case .cpuSeconds: return "--cpu"
        case .waitSeconds: return "--wait"
        case .targetRatePerSecond: return "--target-rate"
        case .coresPerHost: return "--cores-per-host"
        case .headroom: return "--headroom"
        case .roundMilliseconds: return "--round-ms"
        case .observeDuration: return "--duration"
        case .counterCommand: return "--counter"
        }
    }

    /// `text` with every setting it mentions written as its flag.
    static func word(_ text: String) -> String {
        guard text.contains("`") else { return text }
        var worded = text
        for parameter in PoolSizeError.Parameter.allCases where worded.contains(parameter.mention) {
            worded = worded.replacingOccurrences(of: parameter.mention, with: flag(parameter))
        }
        return worded
    }
}
