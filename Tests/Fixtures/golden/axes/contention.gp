# poolsize chart: QoS tiers competing for the CPU (--contend, cpu workload) (io workload, 2 cores, 2026-11-22)
# Written by poolsize; re-render by hand with: gnuplot contention.gp  (from any directory:
# paths are taken relative to this script). Writes contention.svg and contention.png beside it.
# Data: contention.dat (one row per bar).

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'contention.svg'

set title 'QoS tiers competing for the CPU (--contend, cpu workload)'."\n".'io workload, 2 cores, 2026-11-22' noenhanced
set xlabel 'QoS tier (nice value its workers ran at)'
set ylabel 'share of tasks completed (%)'
set style fill solid 0.85 border lc rgb '#333333'
set boxwidth 0.6
set grid ytics
set xrange [-0.6:1.6]
set yrange [0:100]
set xtics nomirror noenhanced
set key below height 1

plot dir.'contention.dat' using 0:2:xtic(1) with boxes lc rgb '#1f77b4' title 'share of completed tasks' noenhanced, \
     '' using 0:4:(sprintf('%.1f%%', $2)) with labels offset 0,0.8 notitle

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'contention.png'
replot
unset output
