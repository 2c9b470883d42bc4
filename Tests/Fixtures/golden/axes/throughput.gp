# poolsize chart: Throughput vs pool size (io workload, 2 cores, 2026-11-22)
# Written by poolsize; re-render by hand with: gnuplot throughput.gp  (from any directory:
# paths are taken relative to this script). Writes throughput.svg and throughput.png beside it.
# Data: throughput.dat (one block per pool / qos / primitive).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'throughput.svg'

set title 'Throughput vs pool size'."\n".'io workload, 2 cores, 2026-11-22' noenhanced
set xlabel 'pool size N (queues)'
set ylabel 'throughput (tasks/s): mean, bars min–max of 2 reps'
set grid
set xrange [0:9]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0  # headroom: a plateau never sits on the border
set samples 400

# The formula's prediction: the ideal closed loop (docs/platform.md), W and C measured with one worker.
W = 3000.0  # µs waiting per task
C = 1000.0  # µs on CPU per task
cores = 2.0
U = 1.0
formula(n) = 1e6 * (n / (W + C) < U * cores / C ? n / (W + C) : U * cores / C)

# Universal Scalability Law fit (Gunther): X(N) = λN / (1 + σ(N − 1) + κN(N − 1)).
sigma = 0.02
kappa = 0.004
lambda = 260.0
usl(n) = lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))

set arrow 2 from 8, graph 0 to 8, graph 1 nohead dt 3 lw 2 lc rgb '#2ca02c'
set label 2 'measured knee 8 ≈ formula N = 8.00' at 8, graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '#2ca02c' noenhanced
set label 3 'recommended 8' at 8, 2000 point pt 7 ps 2.2 lc rgb '#d62728' offset 1.2,-1.2 textcolor rgb '#d62728' front
set key below horizontal maxcols 2 font ',10' samplen 2 height 1

plot dir.'throughput.dat' index 0 using 1:2:4:5 with yerrorlines lw 2.5 pt 7 ps 1 lc rgb '#1f77b4' title 'queue-pool / default / none (recommended)' noenhanced, \
     dir.'throughput.dat' index 1 using 1:2:4:5 with yerrorlines lw 1.5 pt 5 ps 1 lc rgb '#ff7f0e' title 'queue-pool / user-initiated / none' noenhanced, \
     dir.'throughput.dat' index 2 using 1:2:4:5 with yerrorlines lw 1.5 pt 9 ps 1 lc rgb '#17becf' title 'queue-pool / default / mutex' noenhanced, \
     dir.'throughput.dat' index 3 using 1:2:4:5 with yerrorlines lw 1.5 pt 13 ps 1 lc rgb '#8c564b' title 'global-queue / default / none' noenhanced, \
     formula(x) with lines dt 2 lw 2 lc rgb '#7f7f7f' title 'formula: min(N/(W+C), U·cores/C), W/C 3.00', \
     [1:9] usl(x) with lines lw 2 lc rgb '#9467bd' title 'USL fit: σ 0.02, κ 0.004, R² 0.970'

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'throughput.png'
replot
unset output
