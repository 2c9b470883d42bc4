# poolsize chart: Latency p50 and p99 vs pool size (io workload, 2 cores, 2026-11-22)
# Written by poolsize; re-render by hand with: gnuplot latency.gp  (from any directory:
# paths are taken relative to this script). Writes latency.svg and latency.png beside it.
# Data: latency.dat (one block per pool / qos / primitive).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'latency.svg'

set title 'Latency p50 and p99 vs pool size'."\n".'io workload, 2 cores, 2026-11-22' noenhanced
set xlabel 'pool size N (queues)'
set ylabel 'latency (ms, log scale)'
set logscale y
set format y '%g'
set grid
set xrange [0:13]
set ytics 2
set arrow 1 from 8, graph 0 to 8, graph 1 nohead dt 3 lw 2 lc rgb '#d62728'
set label 1 'recommended 8' at 8, graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '#d62728' noenhanced
set key below height 1

plot dir.'latency.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'p50' noenhanced, \
     '' index 0 using 1:3 with linespoints lw 2 dt 2 pt 6 lc rgb '#1f77b4' title 'p99' noenhanced

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'latency.png'
replot
unset output
