/// Text from another process (a thread name, a command line, a socket path) made safe for a
/// terminal: control characters, which could move the cursor or recolour the screen, are shown
/// as `\xHH` escapes, and a backslash as `\\` so an escape cannot be forged. A thread's comm in
/// /proc/PID/task/TID/stat is whatever bytes the process set with prctl(PR_SET_NAME).
package enum ConsoleText {
    package static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value):
                out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
