"""tlbench --no-onednn: the check still compares ours with the scalar
engine (an "ok" line per thread count, exit 0) and oneDNN stays out of
it, whether or not tlbench was built with oneDNN."""
import subprocess
import sys

problem = ['--reorder', '--sdt=f32', '--ddt=s8', '--stag=nchw', '--dtag=nChw16c', '2x16x4x4']
run = subprocess.run([sys.argv[1], '--mode=C', '--threads=1,2', '--no-onednn'] + problem,
                     capture_output=True, text=True)
lines = [l for l in run.stdout.splitlines() if l.startswith('ok ')]
if run.returncode != 0 or len(lines) != 2 or not all('oneDNN: off (--no-onednn)' in l for l in lines):
    sys.exit('tlbench --no-onednn: rc %d\n%s%s' % (run.returncode, run.stdout, run.stderr))
