# poolsize chart: p99 latency vs arrival rate, one line per pool size (open loop) (io workload, 2 cores, 2026-11-23)
# Written by poolsize; re-render by hand with: gnuplot latency-rate.gp  (from any directory:
# paths are taken relative to this script). Writes latency-rate.svg and latency-rate.png beside it.
# Data: latency-rate.dat (measured, one block per pool size) and latency-rate-model.dat (the queueing model).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,600 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'latency-rate.svg'

set title 'p99 latency vs arrival rate, one line per pool size (open loop)'."\n".'io workload, 2 cores, 2026-11-23' noenhanced
set xlabel 'offered arrival rate (tasks/s)'
set ylabel 'p99 latency from intended arrival (ms, log scale)'
set logscale y
set format y '%g'
set grid
set xrange [450:1550]
set key below horizontal maxcols 2 font ',10' samplen 2 height 1

plot dir.'latency-rate.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'N = 8', \
     '' index 1 using 1:2 with linespoints lw 2 pt 5 lc rgb '#ff7f0e' title 'N = 17', \
     '' index 2 using 1:2 with linespoints lw 2 pt 9 lc rgb '#17becf' title 'N = 24', \
     '' index 3 using 1:2 with linespoints lw 2 pt 13 lc rgb '#8c564b' title 'N = 32', \
     dir.'latency-rate-model.dat' index 1 using 1:2 with lines dt 2 lw 1.5 lc rgb '#ff7f0e' notitle, \
     dir.'latency-rate-model.dat' index 2 using 1:2 with lines dt 2 lw 1.5 lc rgb '#17becf' notitle, \
     dir.'latency-rate-model.dat' index 3 using 1:2 with lines dt 2 lw 1.5 lc rgb '#8c564b' notitle, \
     NaN with lines dt 2 lw 1.5 lc rgb '#7f7f7f' title 'dashed: the queueing model (M/M/c) for the same N', \
     dir.'latency-rate.dat' index 0 using 1:4 with points pt 2 ps 2 lw 2 lc rgb '#d62728' title 'fell behind (a lower bound)', \
     dir.'latency-rate.dat' index 1 using 1:4 with points pt 2 ps 2 lw 2 lc rgb '#d62728' notitle, \
     dir.'latency-rate.dat' index 2 using 1:4 with points pt 2 ps 2 lw 2 lc rgb '#d62728' notitle, \
     40.0 with lines dt 4 lw 2 lc rgb '#2ca02c' title 'objective: p99 ≤ 40.0 ms'

set terminal pngcairo size 800,600 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'latency-rate.png'
replot
unset output
