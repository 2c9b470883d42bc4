# poolsize chart: Requested vs reached concurrency (io workload, 2 cores, 2026-11-22)
# Written by poolsize; re-render by hand with: gnuplot concurrency.gp  (from any directory:
# paths are taken relative to this script). Writes concurrency.svg and concurrency.png beside it.
# Data: concurrency.dat (one block per pool kind).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'concurrency.svg'

set title 'Requested vs reached concurrency'."\n".'io workload, 2 cores, 2026-11-22' noenhanced
set xlabel 'requested pool size N (queues)'
set ylabel 'reached (tasks in flight, threads)'
set grid
set xrange [0:13]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0  # headroom: a plateau never sits on the border
set key below height 1

plot x with lines dt 2 lw 1.5 lc rgb '#7f7f7f' title 'reached = requested', \
     dir.'concurrency.dat' index 0 using 1:2 with linespoints lw 4.5 pt 7 ps 1.6 lc rgb '#1f77b4' title 'queue-pool: most tasks in flight' noenhanced, \
     '' index 0 using 1:3 with linespoints lw 1.5 dt 2 pt 6 ps 1.2 lc rgb '#1f77b4' title 'queue-pool: OS threads that ran tasks' noenhanced

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'concurrency.png'
replot
unset output
