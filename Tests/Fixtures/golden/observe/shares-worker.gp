# poolsize chart: Where the threads of pool worker spent their time (pool_target (pid 8277), 2 cores, 2026-11-23)
# Written by poolsize; re-render by hand with: gnuplot shares-worker.gp  (from any directory:
# paths are taken relative to this script). Writes shares-worker.svg and shares-worker.png beside it.
# Data: shares-worker.dat (two rows per slice: its start and its end).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'shares-worker.svg'

set title 'Where the threads of pool worker spent their time'."\n".'pool_target (pid 8277), 2 cores, 2026-11-23' noenhanced
set xlabel 'seconds since the first sweep'
set ylabel 'share of the pool''s thread time (%)'
set grid front
set xrange [0:1.60012]
set yrange [0:100]
set style fill solid 0.9 noborder
set key below horizontal maxcols 2 font ',10' samplen 2 height 1

plot dir.'shares-worker.dat' using 1:(0):($2) with filledcurves lc rgb '#1f77b4' title 'running (on a CPU)' noenhanced, \
     '' using 1:($2):($2+$3) with filledcurves lc rgb '#ff7f0e' title 'runnable (waiting for a CPU)' noenhanced, \
     '' using 1:($2+$3):($2+$3+$4) with filledcurves lc rgb '#17becf' title 'blocked in IO' noenhanced, \
     '' using 1:($2+$3+$4):($2+$3+$4+$5) with filledcurves lc rgb '#8c564b' title 'ambiguous (futex, sleeps)' noenhanced, \
     '' using 1:($2+$3+$4+$5):($2+$3+$4+$5+$6) with filledcurves lc rgb '#c7c7c7' title 'idle (waiting for work)' noenhanced

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'shares-worker.png'
replot
unset output
