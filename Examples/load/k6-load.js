// A closed loop for one trial of `poolsize sweep --load … --parse k6`: each of k6's virtual
// users sends GET to the URL given with `-e URL=…`, waits for the answer and sends the next, on
// a kept-alive connection of its own. How many users and for how long come from the command
// line (`--vus`, `--duration`); k6 prints the run's figures at its end, which the preset reads.
import http from 'k6/http';

export default function () {
    http.get(__ENV.URL);
}
