// An open loop for one trial of `poolsize sweep --arrival-rate … --load … --parse k6`: requests
// start at the rate given with `-e RATE={rate}` (a second), whether or not earlier ones have been
// answered, each on one of at most `-e VUS=…` virtual users (default 100), for `-e DURATION=…`
// (default 3s). k6 does not start a request when every user is busy: it counts it in
// `dropped_iterations`, and poolsize reads that and `vus_max` to tell whether the server or the
// tool held those requests back. In-flight requests get a second to finish after the run.
import http from 'k6/http';

const users = Number(__ENV.VUS || 100);

export const options = {
    scenarios: {
        open: {
            executor: 'constant-arrival-rate',
            rate: Number(__ENV.RATE),
            timeUnit: '1s',
            duration: __ENV.DURATION || '3s',
            preAllocatedVUs: users,
            maxVUs: users,
            gracefulStop: '1s',
        },
    },
};

export default function () {
    http.get(__ENV.URL);
}
