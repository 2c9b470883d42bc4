# poolsize chart: What each size cost the server (server-poolsize workload, 2 cores, 2026-11-26)
# Written by poolsize; re-render by hand with: gnuplot server.gp  (from any directory:
# paths are taken relative to this script). Writes server.svg and server.png beside it.
# Data: server.dat.

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'server.svg'

set title 'What each size cost the server'."\n".'server-poolsize workload, 2 cores, 2026-11-26' noenhanced
set xlabel 'pool size N (the server''s threads)'
set ylabel 'cores its processes kept busy'
set y2label 'resident memory (MiB)'
set grid
set xrange [0:17]
set yrange [0:*]
set y2range [0:*]
set y2tics
set ytics nomirror
set arrow 10 from 5, graph 0 to 5, graph 1 nohead dt 2 lw 2 lc rgb '#2ca02c'
set label 10 'recommended 5' at 5, graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '#2ca02c' noenhanced
set key below height 1

plot dir.'server.dat' index 0 using 1:2 axes x1y1 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'cores busy' noenhanced, \
     '' index 0 using 1:3 axes x1y2 with linespoints lw 2 dt 2 pt 5 lc rgb '#ff7f0e' title 'memory (MiB)' noenhanced

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'server.png'
replot
unset output
