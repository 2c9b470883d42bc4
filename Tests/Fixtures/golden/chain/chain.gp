# poolsize chart: Throughput over the chain's knobs (chain of gunicorn; recommended workers=3 threads=2 pool=2)
# Written by poolsize; re-render by hand with: gnuplot chain.gp  (from any directory:
# paths are taken relative to this script). Writes chain.svg and chain.png beside it.
# Data: chain.dat, a block per curve.

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'chain.svg'

set title 'Throughput over the chain''s knobs'."\n".'chain of gunicorn; recommended workers=3 threads=2 pool=2' noenhanced
set xlabel 'threads (the knob each row sweeps)'
set ylabel 'throughput (requests/s)'
set grid
set xrange [0:9]
set yrange [0:*]
set label 10 'recommended' at 2, 590 point pt 7 ps 2.2 lc rgb '#d62728' offset 1.2,-1.2 textcolor rgb '#d62728' front
set key below height 1

plot dir.'chain.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4' title 'workers=1' noenhanced, \
     '' index 1 using 1:2 with linespoints lw 2 pt 5 lc rgb '#ff7f0e' title 'workers=2' noenhanced, \
     '' index 2 using 1:2 with linespoints lw 2 pt 9 lc rgb '#17becf' title 'workers=3' noenhanced

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'chain.png'
replot
unset output
