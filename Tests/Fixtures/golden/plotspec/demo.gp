# poolsize chart: Demo chart (io workload)
# Written by poolsize; re-render by hand with: gnuplot demo.gp  (from any directory:
# paths are taken relative to this script). Writes demo.svg and demo.png beside it.
# Data: demo.dat (two blocks).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'demo.svg'

set title 'Demo chart'."\n".'io workload' noenhanced
set xlabel 'pool size'
set ylabel 'latency (ms)'
set y2label 'rate'
set logscale y
set format y '%g'
set grid
set xrange [0:4.2]
set y2range [0:*]
set y2tics
set ytics nomirror
set ytics 2
set offsets 0, 0, graph 0.08, 0  # headroom: a plateau never sits on the border
set arrow 1 from 2, graph 0 to 2, graph 1 nohead dt 3 lw 2 lc rgb '#d62728'
set label 1 'recommended 2' at 2, graph 0.03 rotate by 90 left offset -1.2,0 textcolor rgb '#d62728' noenhanced
set arrow 10 from graph 0, first 100 to graph 1, first 100 nohead dt 2 lw 2 lc rgb '#2ca02c'
set label 10 'line' at graph 0.02, first 100 offset 0,0.7 textcolor rgb '#2ca02c' noenhanced
set label 3 'point' at 2, 0.5 point pt 7 ps 2.2 lc rgb '#d62728' offset 1.2,-1.2 textcolor rgb '#d62728' front

# a model
C = 1000.0  # µs on CPU
model(n) = C * n
set key below horizontal maxcols 2 font ',10' samplen 2 height 1

plot dir.'demo.dat' index 0 using 1:2 axes x1y1 with linespoints lw 2 dt 2 pt 7 ps 1.5 lc rgb '#1f77b4' title 'first' noenhanced, \
     '' index 1 using 0:2:xtic(3) with boxes lc rgb '#ff7f0e' title 'second', \
     '' using 1:(0):($2+$3) with filledcurves notitle, \
     '' using 0:2:(sprintf('%.1f%%', $2)) with labels offset 0,0.8 notitle, \
     [1:4.2] model(x) with lines lw 2 lc rgb '#9467bd' title 'model', \
     x with lines dt 2 title 'y = x', \
     40.0 with lines dt 4 title 'objective'

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'demo.png'
replot
unset output
