# poolsize chart: CPU utilization and context switches vs pool size (io workload, 2 cores, 2026-11-22)
# Written by poolsize; re-render by hand with: gnuplot utilization.gp  (from any directory:
# paths are taken relative to this script). Writes utilization.svg and utilization.png beside it.
# Data: utilization.dat (one block per pool / qos / primitive).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'utilization.svg'

set title 'CPU utilization and context switches vs pool size'."\n".'io workload, 2 cores, 2026-11-22' noenhanced
set xlabel 'pool size N (queues)'
set ylabel 'CPU utilization (% of 2 cores)'
set grid
set xrange [0:13]
set yrange [0:120]
set arrow 10 from graph 0, first 100 to graph 1, first 100 nohead dt 2 lc rgb '#7f7f7f'
set y2label 'context switches (per s)'
set y2range [0:*]
set y2tics
set ytics nomirror
set arrow 1 from 8, graph 0 to 8, graph 1 nohead dt 3 lw 2 lc rgb '#d62728'
set label 1 'recommended 8' at 8, graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '#d62728' noenhanced
set key below height 1

plot dir.'utilization.dat' index 0 using 1:2 axes x1y1 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'CPU utilization' noenhanced, \
     '' index 0 using 1:3 axes x1y2 with linespoints lw 1.5 dt 3 pt 4 lc rgb '#555555' title 'voluntary context switches/s' noenhanced, \
     '' index 0 using 1:4 axes x1y2 with linespoints lw 1.5 dt 4 pt 8 lc rgb '#111111' title 'involuntary context switches/s' noenhanced

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'utilization.png'
replot
unset output
