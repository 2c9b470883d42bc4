-- wrk's report for the benchmark scripts (wrk -s scripts/wrk-report.lua): one line,
-- `wrk-report requests=… duration_us=… cpu_us=… errors=… p50_us=… p99_us=…`, written in wrk's
-- done() hook once its threads are joined, so the CPU is the whole run's. The CPU is
-- getrusage(RUSAGE_SELF) through LuaJIT's FFI, in microseconds: /proc/self/stat's utime and
-- stime count whole clock ticks, too coarse for a client whose whole CPU is a few ticks.
local ffi = require("ffi")
ffi.cdef[[
struct poolsize_timeval { long tv_sec; long tv_usec; };
struct poolsize_rusage { struct poolsize_timeval ru_utime; struct poolsize_timeval ru_stime; long rest[14]; };
int getrusage(int who, struct poolsize_rusage *usage);
]]
done = function(summary, latency, requests)
    local usage = ffi.new("struct poolsize_rusage")
    ffi.C.getrusage(0, usage)
    local cpu_us = tonumber(usage.ru_utime.tv_sec) * 1e6 + tonumber(usage.ru_utime.tv_usec)
        + tonumber(usage.ru_stime.tv_sec) * 1e6 + tonumber(usage.ru_stime.tv_usec)
    local e = summary.errors
    io.write(string.format("wrk-report requests=%d duration_us=%d cpu_us=%d errors=%d p50_us=%d p99_us=%d\n",
        summary.requests, summary.duration, cpu_us, e.connect + e.read + e.write + e.status + e.timeout,
        latency:percentile(50), latency:percentile(99)))
end
