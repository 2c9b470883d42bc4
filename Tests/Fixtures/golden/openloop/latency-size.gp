# poolsize chart: Latency vs pool size at 1000/s (open loop) (io workload, 2 cores, 2026-11-23)
# Written by poolsize; re-render by hand with: gnuplot latency-size.gp  (from any directory:
# paths are taken relative to this script). Writes latency-size.svg and latency-size.png beside it.
# Data: latency-size.dat.

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'latency-size.svg'

set title 'Latency vs pool size at 1000/s (open loop)'."\n".'io workload, 2 cores, 2026-11-23' noenhanced
set xlabel 'pool size N (queues)'
set ylabel 'latency from intended arrival (ms, log scale)'
set logscale y
set format y '%g'
set grid
set xrange [0:26]
set arrow 1 from 20, graph 0 to 20, graph 1 nohead dt 3 lw 2 lc rgb '#d62728'
set label 1 'recommended 20' at 20, graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '#d62728' noenhanced
set key below horizontal maxcols 2 font ',10' samplen 2 height 1

plot dir.'latency-size.dat' using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'p50', \
     '' using 1:3 with linespoints lw 2.5 pt 5 lc rgb '#ff7f0e' title 'p99 (worst repetition)', \
     '' using 1:4 with linespoints dt 2 lw 2 pt 6 lc rgb '#7f7f7f' title 'p99 by the queueing model (M/M/c)', \
     '' using 1:5 with points pt 2 ps 2 lw 2 lc rgb '#d62728' title 'fell behind (a lower bound)', \
     40.0 with lines dt 4 lw 2 lc rgb '#2ca02c' title 'objective: p99 ≤ 40.0 ms'

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'latency-size.png'
replot
unset output
