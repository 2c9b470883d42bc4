# poolsize chart: Throughput vs pool size, per machine (io workload, 3 machines)
# Written by poolsize; re-render by hand with: gnuplot machines.gp  (from any directory:
# paths are taken relative to this script). Writes machines.svg and machines.png beside it.
# data: machines.dat (one block per machine), machines-recommended.dat

dir = ''
if (exists('ARG0')) { i = strlen(ARG0); while (i > 0 && ARG0[i:i] ne '/') { i = i - 1 }; if (i > 0) { dir = ARG0[1:i] } }
set encoding utf8
set terminal svg size 800,500 dynamic enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'machines.svg'

set title 'Throughput vs pool size, per machine'."\n".'io workload, 3 machines' noenhanced
set xlabel 'pool size N (queues)'
set ylabel 'throughput (tasks/s), mean of the repetitions'
set grid
set xrange [0:17]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0  # headroom: a plateau never sits on the border
set key below height 1

plot dir.'machines.dat' index 0 using 1:2 with linespoints lw 2 pt 7 ps 1 lc rgb '#1f77b4' title 'small-vm, 2 cores' noenhanced, \
     dir.'machines.dat' index 1 using 1:2 with linespoints lw 2 pt 5 ps 1 lc rgb '#ff7f0e' title 'large-vm, 4 cores' noenhanced, \
     dir.'machines.dat' index 2 using 1:2 with linespoints lw 2 pt 9 ps 1 lc rgb '#17becf' title 'locked-vm, 4 cores' noenhanced, \
     dir.'machines-recommended.dat' using 1:2 with points pt 7 ps 2.2 lc rgb '#d62728' title 'recommended size'

set terminal pngcairo size 800,500 enhanced font 'Helvetica,12' background rgb 'white'
set output dir.'machines.png'
replot
unset output
